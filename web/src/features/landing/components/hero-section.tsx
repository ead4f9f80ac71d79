import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { Link } from 'react-router-dom';

import { BotLinkButton } from '@/components/ui/bot-link-button';
import { Icon } from '@/components/ui/icons';
import { paths } from '@/config/paths';

import { FEATURES_ANCHOR } from './features-section';

function scrollToFeatures() {
  document.getElementById(FEATURES_ANCHOR)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

export function HeroSection() {
  return (
    <section className="hero">
      <Container className="py-5">
        <div className="row align-items-center g-4 gx-lg-5 py-lg-4">
          <div className="col-lg-7">
            <span className="hero-eyebrow mb-3">Нейросети GPT прямо в Telegram</span>
            <h1 className="hero-title mb-3">Умный помощник, который всегда под рукой</h1>
            <p className="hero-lead mb-4">
              Задавайте вопросы, пишите тексты, генерируйте изображения и разбирайте документы — в привычном
              мессенджере, без VPN и сложных настроек. Оплата в рублях.
            </p>
            <div className="d-flex flex-wrap gap-2">
              <Link to={paths.register} className="btn btn-light btn-lg text-primary fw-semibold">
                Начать бесплатно
              </Link>
              <BotLinkButton variant="outline-light" size="lg" />
              <Button variant="link" size="lg" className="text-white text-decoration-none" onClick={scrollToFeatures}>
                Узнать больше ↓
              </Button>
            </div>
          </div>
          <div className="col-lg-5 d-none d-lg-block">
            <div className="hero-chat shadow-lg" aria-hidden>
              <div className="hero-chat-header">
                <Icon name="chat" size={18} className="me-2" />
                GPT Бот
              </div>
              <div className="hero-bubble hero-bubble-user">Составь план тренировок на неделю</div>
              <div className="hero-bubble hero-bubble-bot">
                Конечно! Понедельник — кардио 30 минут, вторник — силовая на верх тела, среда — отдых и растяжка…
              </div>
              <div className="hero-bubble hero-bubble-user">А теперь нарисуй логотип для моего фитнес-клуба</div>
              <div className="hero-bubble hero-bubble-bot">Готово! Вот три варианта логотипа на выбор.</div>
            </div>
          </div>
        </div>
      </Container>
    </section>
  );
}
