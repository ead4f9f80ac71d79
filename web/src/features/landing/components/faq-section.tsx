import Container from 'react-bootstrap/Container';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';

import { HOME_FAQ_COUNT } from '../faq';
import { FaqAccordion } from './faq-accordion';

/** The home page's first questions; `tariffsAnswer` is the FAQ's comparison of the tariffs. */
export function FaqSection({ tariffsAnswer }: { tariffsAnswer: string }) {
  return (
    <section className="section section-muted">
      <Container className="faq-container">
        <div className="section-heading text-center mb-5">
          <h2 className="mb-2">Частые вопросы</h2>
          <p className="text-body-secondary mb-0">Коротко о главном</p>
        </div>
        <FaqAccordion count={HOME_FAQ_COUNT} tariffsAnswer={tariffsAnswer} />
        <div className="text-center mt-4">
          <Link to={paths.faq} className="btn btn-outline-primary">
            Все вопросы
          </Link>
        </div>
      </Container>
    </section>
  );
}
