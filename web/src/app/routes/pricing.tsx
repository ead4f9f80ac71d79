import { useState } from 'react';

import { PageHeader } from '@/components/ui/page-header';
import { TariffPurchaseDialog, type TariffPurchase } from '@/features/billing/components/tariff-purchase-dialog';
import { TariffCards } from '@/features/tariffs/components/tariff-cards';
import type { TariffPlan } from '@/features/tariffs/tariff-plans';

import { PageContainer } from '../layouts/page-container';

const purchaseOf = (plan: TariffPlan): TariffPurchase => ({
  id: Number(plan.id),
  name: plan.name,
  monthlyPrice: plan.monthlyPrice,
  includedCredits: plan.includedCredits,
  creditsPerRuble: plan.creditsPerRuble,
});

export function PricingPage() {
  const [purchase, setPurchase] = useState<TariffPurchase | null>(null);
  return (
    <PageContainer>
      <PageHeader
        title="Тарифы"
        lead="Все тарифы дают доступ через Telegram-бота, распознавание изображений и выбор модели для чата."
      />
      <TariffCards showDescriptions onBuy={(plan) => setPurchase(purchaseOf(plan))} />
      <p className="text-body-secondary small mt-4 mb-0">
        Цены указаны в рублях за месяц. Кредиты, купленные сверх тарифа, не сгорают; включённые в тариф кредиты
        действуют в течение оплаченного месяца.
      </p>
      <TariffPurchaseDialog tariff={purchase} onClose={() => setPurchase(null)} />
    </PageContainer>
  );
}
