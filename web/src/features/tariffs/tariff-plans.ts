import type { Money } from '@gpt/contracts';

/** A tariff card: the spec's plans (docs/product.md, What it sells) until billing's own list has loaded. */
export interface TariffPlan {
  id: string;
  name: string;
  /** Roubles per month, exact ("350.00"). */
  monthlyPrice: Money;
  creditsPerRuble: number;
  includedCredits: number;
  canGenerateImages: boolean;
  description: string;
  highlighted?: boolean;
}

/** A plan with no monthly fee. */
export const isFree = (plan: TariffPlan) => /^0+(\.0+)?$/.test(plan.monthlyPrice);

export const tariffPlans: readonly TariffPlan[] = [
  {
    id: 'base',
    name: 'Base',
    monthlyPrice: '0.00',
    creditsPerRuble: 100,
    includedCredits: 0,
    canGenerateImages: false,
    description: 'Для знакомства: платите только за то, что используете, пополняя баланс на любую сумму.',
  },
  {
    id: 'premium',
    name: 'Premium',
    monthlyPrice: '350.00',
    creditsPerRuble: 200,
    includedCredits: 70_000,
    canGenerateImages: true,
    description:
      'Для ежедневной работы: вдвое больше кредитов за рубль, пакет кредитов каждый месяц и генерация изображений.',
    highlighted: true,
  },
  {
    id: 'elite',
    name: 'Elite',
    monthlyPrice: '1250.00',
    creditsPerRuble: 400,
    includedCredits: 500_000,
    canGenerateImages: true,
    description: 'Для тех, кто работает с нейросетями много: максимальный пакет кредитов и самый выгодный курс.',
  },
];

/** Included in every plan (docs/product.md, What it sells). */
export const commonPlanFeatures: readonly string[] = [
  'Доступ через Telegram-бота',
  'Распознавание изображений',
  'Выбор модели для чата',
];
