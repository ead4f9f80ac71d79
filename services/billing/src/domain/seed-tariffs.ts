import type { NewTariff } from '../data/tariffs.repository';

/** The plan every user starts on and falls back to when a paid month ends. */
export const BASE_TARIFF_NAME = 'Base';

/** The three plans of docs/product.md, What it sells; created on first start, never overwritten. */
export const defaultTariffs: NewTariff[] = [
  {
    name: BASE_TARIFF_NAME,
    description:
      'Бесплатный тариф: доступ к боту, распознавание изображений и выбор модели. Кредиты покупаются отдельно.',
    monthly_price: '0.00',
    credits_per_ruble: 100,
    included_credits: 0,
    can_generate_images: false,
    is_active: true,
  },
  {
    name: 'Premium',
    description: '70 000 кредитов в месяц, генерация изображений и 200 кредитов за каждый рубль пополнения.',
    monthly_price: '350.00',
    credits_per_ruble: 200,
    included_credits: 70_000,
    can_generate_images: true,
    is_active: true,
  },
  {
    name: 'Elite',
    description: '500 000 кредитов в месяц, генерация изображений и 400 кредитов за каждый рубль пополнения.',
    monthly_price: '1250.00',
    credits_per_ruble: 400,
    included_credits: 500_000,
    can_generate_images: true,
    is_active: true,
  },
];
