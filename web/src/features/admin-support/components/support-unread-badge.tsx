import Badge from 'react-bootstrap/Badge';

import { useSupportUnread } from '../api/get-support-requests';

/** The «Обращения» menu entry's count of requests nobody has handled yet (nothing when none). */
export function SupportUnreadBadge() {
  const unread = useSupportUnread().data?.unread ?? 0;
  if (unread === 0) return null;
  return (
    <Badge bg="danger" pill className="ms-auto" aria-label={`Новых обращений: ${unread}`}>
      {unread}
    </Badge>
  );
}
