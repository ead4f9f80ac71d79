import Spinner from 'react-bootstrap/Spinner';

/** A centred spinner for a page or a panel that is loading. */
export function SpinnerBlock({ label = 'Загрузка…' }: { label?: string }) {
  return (
    <div className="d-flex justify-content-center align-items-center py-5" role="status" aria-live="polite">
      <Spinner animation="border" variant="primary" className="me-2" aria-hidden />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
