import Container from 'react-bootstrap/Container';

import { usePageTitle } from '@/lib/use-page-title';
import { ArticleTeasers } from '@/features/landing/components/article-teasers';
import { FaqSection } from '@/features/landing/components/faq-section';
import { FeaturesSection } from '@/features/landing/components/features-section';
import { HeroSection } from '@/features/landing/components/hero-section';
import { TariffCards } from '@/features/tariffs/components/tariff-cards';

export function HomePage() {
  usePageTitle(null);
  return (
    <>
      <HeroSection />
      <FeaturesSection />
      <section className="section section-muted" id="pricing">
        <Container>
          <div className="section-heading text-center mb-5">
            <h2 className="mb-2">Тарифы</h2>
            <p className="text-body-secondary mb-0">
              Начните бесплатно и переходите на другой тариф, когда понадобится
            </p>
          </div>
          <TariffCards />
        </Container>
      </section>
      <FaqSection />
      <ArticleTeasers />
    </>
  );
}
