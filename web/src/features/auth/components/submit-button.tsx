import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

/** A full-width submit button that shows a spinner while the request runs. */
export function SubmitButton({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <Button type="submit" variant="primary" size="lg" className="w-100" disabled={loading} aria-busy={loading}>
      {loading && <Spinner animation="border" size="sm" className="me-2" aria-hidden />}
      {children}
    </Button>
  );
}
