import Button, { type ButtonProps } from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

/** A button that is disabled and shows a spinner while `busy` (its request runs). */
export function BusyButton({ busy, disabled, children, ...props }: ButtonProps & { busy: boolean }) {
  return (
    <Button {...props} disabled={busy || disabled} aria-busy={busy}>
      {busy && <Spinner animation="border" size="sm" className="me-2" aria-hidden />}
      {children}
    </Button>
  );
}
