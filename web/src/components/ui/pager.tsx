import Button from 'react-bootstrap/Button';

export interface PagerProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** Names the «Страница X из Y» text for tests. */
  testId?: string;
  className?: string;
}

/** Back and Forward with «Страница X из Y», always shown; a button with nowhere to go is disabled. */
export function Pager({ page, pages: counted, onPage, testId, className = 'mt-5' }: PagerProps) {
  const pages = Math.max(counted, 1);
  return (
    <nav
      className={`d-flex align-items-center justify-content-center gap-2 gap-sm-3 ${className}`}
      aria-label="Страницы"
    >
      <Button variant="outline-primary" className="text-nowrap" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Назад
      </Button>
      <span className="text-body-secondary text-nowrap" data-testid={testId}>
        Страница {page} из {pages}
      </span>
      <Button
        variant="outline-primary"
        className="text-nowrap"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Вперёд →
      </Button>
    </nav>
  );
}
