import { describe, expect, test } from '@jest/globals';
import { CreatePaymentRequest } from '@gpt/contracts';

import { parseTopUp } from '../src/features/billing/top-up';

/** What billing answers to the same amount: the contract's first message, or the amount it keeps. */
function billingReads(amount: string) {
  const parsed = CreatePaymentRequest.safeParse({ amount });
  return parsed.success ? { amount: parsed.data.amount } : { error: parsed.error.issues[0]!.message };
}

describe('the account’s top-up field (docs/product.md, Screens)', () => {
  test('when an amount is typed with a comma, then it is read as roubles with two decimals', () => {
    expect(parseTopUp(' 99,9 ')).toEqual({ amount: '99.90' });
    expect(parseTopUp('350')).toEqual({ amount: '350.00' });
  });

  test('when nothing is typed, then it asks for an amount', () => {
    expect(parseTopUp('  ')).toEqual({ error: 'Введите сумму пополнения' });
  });

  test.each(['abc', '0.99', '1', '1000000', '1000000.01', '1.234', '-5', '12.50'])(
    'when %s is typed, then it is refused or taken exactly as billing would',
    (typed) => {
      expect(parseTopUp(typed)).toEqual(billingReads(typed));
    },
  );

  test('when an amount is out of the limits, then the limit is named', () => {
    expect(parseTopUp('0.5')).toEqual({ error: 'Минимальная сумма пополнения 1 ₽' });
    expect(parseTopUp('1000000.01')).toEqual({ error: 'Максимальная сумма пополнения 1 000 000 ₽' });
    expect(parseTopUp('1.234')).toEqual({ error: 'Сумма: не более 2 знаков после запятой' });
  });
});
