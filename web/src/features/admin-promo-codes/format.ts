import type { PromoCode } from '@gpt/contracts';

import { pluralRu } from '@/lib/dates';
import { formatCredits } from '@/lib/money';

/** What a code gives: «500 кредитов» or «Premium на 7 дней». */
export function promoGift(code: Pick<PromoCode, 'kind' | 'credits' | 'tariff_name' | 'tariff_days'>): string {
  if (code.kind === 'credits')
    return `${formatCredits(code.credits ?? 0)} ${pluralRu(code.credits ?? 0, ['кредит', 'кредита', 'кредитов'])}`;
  const days = code.tariff_days ?? 0;
  return `${code.tariff_name ?? 'Тариф'} на ${days} ${pluralRu(days, ['день', 'дня', 'дней'])}`;
}
