import Container from 'react-bootstrap/Container';

import { usePageTitle } from '@/lib/use-page-title';
import { ArticleTeasers } from '@/features/landing/components/article-teasers';
import { FaqSection } from '@/features/landing/components/faq-section';
import { FeaturesSection } from '@/features/landing/components/features-section';
import { HeroSection } from '@/features/landing/components/hero-section';
import { usePublicTariffPlans } from '@/features/tariffs/api/get-public-tariffs';
import { TariffCards } from '@/features/tariffs/components/tariff-cards';
import { plansCompared } from '@/features/tariffs/tariff-facts';

export function HomePage() {
  usePageTitle(null);
  const plans = usePublicTariffPlans();
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
      <FaqSection tariffsAnswer={plansCompared(plans)} />
      <ArticleTeasers />
    </>
  );
}
