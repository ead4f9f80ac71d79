import Container from 'react-bootstrap/Container';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { site } from '@/config/site';

/** Footer of spec §2: offer, privacy, feedback; the year shown is 2024. */
export function SiteFooter() {
  return (
    <footer className="site-footer mt-auto">
      <Container className="py-4 d-flex flex-column flex-md-row align-items-center justify-content-between gap-3">
        <div className="text-body-secondary small">
          © {site.copyrightYear} {site.name}
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
