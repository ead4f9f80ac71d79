import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';

import { Icon, type IconName } from '@/components/ui/icons';

export const FEATURES_ANCHOR = 'features';

const features: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'chat',
    title: 'Чат с нейросетью',
    text: 'Отвечает на вопросы, пишет и редактирует тексты, помогает с кодом и учёбой. Модель можно выбрать под задачу.',
  },
  {
    icon: 'image',
    title: 'Генерация изображений',
    text: 'Опишите картинку словами — бот нарисует её. А ещё он понимает изображения, которые вы ему присылаете.',
  },
  {
    icon: 'file',
    title: 'Работа с файлами',
    text: 'Пришлите документ — бот кратко перескажет его, ответит на вопросы по содержанию и поможет с правками.',
  },
];

export function FeaturesSection() {
  return (
    <section id={FEATURES_ANCHOR} className="section">
      <Container>
        <div className="section-heading text-center mb-5">
          <h2 className="mb-2">Что умеет бот</h2>
          <p className="text-body-secondary mb-0">Всё самое полезное из мира нейросетей — в одном чате</p>
        </div>
        <Row xs={1} md={3} className="g-4">
          {features.map((feature) => (
            <Col key={feature.title}>
              <Card className="feature-card h-100">
                <Card.Body className="p-4">
                  <div className="feature-icon mb-3">
                    <Icon name={feature.icon} size={26} />
                  </div>
                  <h3 className="h5">{feature.title}</h3>
                  <p className="text-body-secondary mb-0">{feature.text}</p>
                </Card.Body>
              </Card>
            </Col>
          ))}
        </Row>
      </Container>
    </section>
  );
}
