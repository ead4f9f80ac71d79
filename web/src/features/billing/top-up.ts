import { TopUpAmountInput } from '@gpt/contracts';

/**
 * A top-up amount as typed ("350", "99,9") checked by the contract's rule, the one billing checks it by;
 * answers roubles ("99.90") or the contract's error text.
 */
export function parseTopUp(text: string): { amount: string } | { error: string } {
  const normalized = text.trim().replace(',', '.');
  if (normalized === '') return { error: 'Введите сумму пополнения' };
  const parsed = TopUpAmountInput.safeParse(normalized);
  return parsed.success ? { amount: parsed.data } : { error: parsed.error.issues[0]!.message };
}
