import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';

const teasers = [
  {
    slug: 'ai-trends',
    title: 'Тренды искусственного интеллекта',
    text: 'Куда движутся нейросети: мультимодальные модели, ИИ-агенты и то, как это меняет повседневную работу.',
  },
  {
    slug: 'gpt-guide',
    title: 'Как пользоваться GPT: руководство для начинающих',
    text: 'Как формулировать запросы, чтобы получать точные ответы, и какие задачи нейросеть решает лучше всего.',
  },
];

export function ArticleTeasers() {
  return (
    <section className="section">
      <Container>
        <div className="d-flex flex-wrap align-items-end justify-content-between gap-2 mb-4">
          <div>
            <h2 className="mb-1">Статьи</h2>
            <p className="text-body-secondary mb-0">Полезное о нейросетях и о том, как извлечь из них максимум</p>
          </div>
          <Link to={paths.articles} className="btn btn-outline-primary">
            Все статьи
          </Link>
        </div>
        <Row xs={1} md={2} className="g-4">
          {teasers.map((teaser) => (
            <Col key={teaser.slug}>
              <Card className="teaser-card h-100">
                <Card.Body className="p-4 d-flex flex-column">
                  <h3 className="h5">
                    <Link to={paths.article(teaser.slug)} className="stretched-link text-reset text-decoration-none">
                      {teaser.title}
                    </Link>
                  </h3>
                  <p className="text-body-secondary mb-3">{teaser.text}</p>
                  <span className="text-primary fw-semibold mt-auto">Читать →</span>
                </Card.Body>
              </Card>
            </Col>
          ))}
        </Row>
      </Container>
    </section>
  );
}
