/** A tariff card: the spec's plans (docs/product.md, What it sells) until billing's own list has loaded. */
export interface TariffPlan {
  id: string;
  name: string;
  /** Roubles per month. */
  monthlyPrice: number;
  creditsPerRuble: number;
  includedCredits: number;
  canGenerateImages: boolean;
  description: string;
  highlighted?: boolean;
}

export const tariffPlans: readonly TariffPlan[] = [
  {
    id: 'base',
    name: 'Base',
    monthlyPrice: 0,
    creditsPerRuble: 100,
    includedCredits: 0,
    canGenerateImages: false,
    description: 'Для знакомства: платите только за то, что используете, пополняя баланс на любую сумму.',
  },
  {
    id: 'premium',
    name: 'Premium',
    monthlyPrice: 350,
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
    monthlyPrice: 1250,
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
