import { formatCredits, formatRoubles } from '@/lib/money';

import { isFree, type TariffPlan } from './tariff-plans';

/** A plan's terms as the offer states them, from billing's tariff (never a copy of its figures). */
export function planTerms(plan: TariffPlan): string {
  const included =
    plan.includedCredits > 0 ? `${formatCredits(plan.includedCredits)} включённых кредитов` : 'без включённых кредитов';
  return `Тариф ${plan.name} — ${formatRoubles(plan.monthlyPrice)} в месяц: ${formatCredits(plan.creditsPerRuble)} кредитов за 1 ₽ пополнения, ${included}, ${plan.canGenerateImages ? 'генерация изображений' : 'без генерации изображений'}.`;
}

/** The FAQ's answer to «Чем отличаются тарифы?», from billing's tariffs. */
export function plansCompared(plans: readonly TariffPlan[]): string {
  return plans
    .map((plan) =>
      isFree(plan)
        ? `${plan.name} бесплатен: вы платите только за кредиты, ${formatCredits(plan.creditsPerRuble)} кредитов за 1 ₽.`
        : `${plan.name} за ${formatRoubles(plan.monthlyPrice)} в месяц даёт ${formatCredits(plan.includedCredits)} кредитов, ${formatCredits(plan.creditsPerRuble)} кредитов за 1 ₽ при пополнении${plan.canGenerateImages ? ' и генерацию изображений' : ''}.`,
    )
    .join(' ');
}
