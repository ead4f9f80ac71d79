import Button from 'react-bootstrap/Button';

/** Back and Forward with «Страница X из Y» (spec §2); nothing when everything fits one page. */
export function ArticlesPager({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="d-flex align-items-center justify-content-center gap-3 mt-5" aria-label="Страницы">
      <Button variant="outline-primary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Назад
      </Button>
      <span className="text-body-secondary" data-testid="articles-page">
        Страница {page} из {pages}
      </span>
      <Button variant="outline-primary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Вперёд →
      </Button>
    </nav>
  );
}
