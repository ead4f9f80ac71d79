import { formatCredits } from '@/lib/money';

import { useBalance } from '../api/get-balance';

/** «Доступно: 12 345 кредитов» — what can be spent now (bought and included credits less those held). */
export function AvailableCredits() {
  const balance = useBalance();
  if (!balance.data) return null;
  const { credits, included_credits, held_credits } = balance.data;
  return (
    <span className="text-nowrap" data-testid="available-credits">
      Доступно: <strong>{formatCredits(credits + included_credits - held_credits)}</strong> кредитов
    </span>
  );
}
