import { Link } from 'react-router-dom';

import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { FaqAccordion } from '@/features/landing/components/faq-accordion';
import { usePublicTariffPlans } from '@/features/tariffs/api/get-public-tariffs';
import { plansCompared } from '@/features/tariffs/tariff-facts';

import { PageContainer } from '../layouts/page-container';

export function FaqPage() {
  const plans = usePublicTariffPlans();
  return (
    <PageContainer narrow>
      <PageHeader
        title="Часто задаваемые вопросы"
        documentTitle="FAQ"
        lead="Ответы на частые вопросы о боте, кредитах, тарифах и оплате"
      />
      <FaqAccordion tariffsAnswer={plansCompared(plans)} />
      <p className="text-body-secondary mt-4 mb-0">
        Не нашли ответ? <Link to={paths.contact}>Напишите нам</Link> — ответим в Telegram.
      </p>
    </PageContainer>
  );
}
