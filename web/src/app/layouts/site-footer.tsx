import Container from 'react-bootstrap/Container';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { site } from '@/config/site';

/** The site's years: from its first (2024) to this one, so the footer never shows a stale year. */
const years = (first: number, now = new Date().getFullYear()) => (now > first ? `${first}–${now}` : `${first}`);

/** Footer: offer, privacy, feedback and the site's years. */
export function SiteFooter() {
  return (
    <footer className="site-footer mt-auto">
      <Container className="py-4 d-flex flex-column flex-md-row align-items-center justify-content-between gap-3">
        <div className="text-body-secondary small">
          © {years(site.copyrightYear)} {site.name}
        </div>
        <nav aria-label="Документы и обратная связь" className="d-flex flex-wrap justify-content-center gap-3 small">
          <Link to={paths.offer}>{site.offerTitle}</Link>
          <Link to={paths.privacy}>{site.privacyTitle}</Link>
          <Link to={paths.contact}>Обратная связь</Link>
        </nav>
      </Container>
    </footer>
  );
}
