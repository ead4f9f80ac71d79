import { PageHeader } from '@/components/ui/page-header';
import { TariffCards } from '@/features/tariffs/components/tariff-cards';

import { PageContainer } from '../layouts/page-container';

export function PricingPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Тарифы"
        lead="Все тарифы дают доступ через Telegram-бота, распознавание изображений и выбор модели для чата."
      />
      <TariffCards showDescriptions />
      <p className="text-body-secondary small mt-4 mb-0">
        Цены указаны в рублях за месяц. Кредиты, купленные сверх тарифа, не сгорают; включённые в тариф кредиты
        действуют в течение оплаченного месяца.
      </p>
    </PageContainer>
  );
}
