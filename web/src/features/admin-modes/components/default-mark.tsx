import Badge from 'react-bootstrap/Badge';

/** The mode a user who has not chosen one is in. */
export function DefaultMark({ isDefault }: { isDefault: boolean }) {
  return isDefault ? <Badge bg="primary">По умолчанию</Badge> : null;
}
