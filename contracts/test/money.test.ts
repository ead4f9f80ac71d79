import { describe, expect, test } from '@jest/globals';
import {
  AiModelInput,
  CreatePaymentRequest,
  decimalInput,
  fromMinorUnits,
  Money,
  MoneyInput,
  TariffInput,
  toMinorUnits,
  UsdAmount,
  UsdPriceInput,
} from '../src/index';

describe('MoneyInput (roubles)', () => {
  test('when given a number or a decimal string, then it is normalized to exactly 2 decimals', () => {
    expect(MoneyInput.parse(350)).toBe('350.00');
    expect(MoneyInput.parse('350')).toBe('350.00');
    expect(MoneyInput.parse(350.5)).toBe('350.50');
    expect(MoneyInput.parse(' 1250.99 ')).toBe('1250.99');
    expect(MoneyInput.parse('007.10')).toBe('7.10');
    expect(MoneyInput.parse(0)).toBe('0.00');
    expect(MoneyInput.parse('12.3400')).toBe('12.34');
  });

  test('when given a float artefact such as 0.1 + 0.2, then it is refused, not rounded', () => {
    const result = MoneyInput.safeParse(0.1 + 0.2);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Не более 2 знаков после запятой');
  });

  test('when given more decimals than allowed, then it is refused', () => {
    expect(MoneyInput.safeParse('1.005').success).toBe(false);
    expect(MoneyInput.safeParse(1.005).success).toBe(false);
  });

  test('when given exponents, NaN, Infinity, words or other types, then it is refused', () => {
    for (const bad of [1e21, '1e3', Number.NaN, Number.POSITIVE_INFINITY, 'abc', '', '1,5', true, null, {}]) {
      expect(MoneyInput.safeParse(bad).success).toBe(false);
    }
  });

  test('when below the minimum, then the min message', () => {
    expect(MoneyInput.safeParse(-1).error?.issues[0]?.message).toBe('Значение должно быть не меньше 0');
  });
});

describe('UsdPriceInput (dollars per 1M tokens)', () => {
  test('when valid, then it has 6 decimals; when it has 7, then it is refused', () => {
    expect(UsdPriceInput.parse(2.5)).toBe('2.500000');
    expect(UsdPriceInput.parse('0.000150')).toBe('0.000150');
    expect(UsdPriceInput.parse(0.0001)).toBe('0.000100');
    expect(UsdPriceInput.safeParse('0.0000001').success).toBe(false);
  });
});

describe('decimalInput bounds', () => {
  test('when a custom range and messages are given, then they apply exactly at the bounds', () => {
    const amount = decimalInput({ scale: 2, min: '1', max: '10', messages: { min: 'мало', max: 'много' } });
    expect(amount.parse('1')).toBe('1.00');
    expect(amount.parse('10.00')).toBe('10.00');
    expect(amount.safeParse('0.99').error?.issues[0]?.message).toBe('мало');
    expect(amount.safeParse('10.01').error?.issues[0]?.message).toBe('много');
  });
});

describe('minor units', () => {
  test('when converted both ways, then values are exact', () => {
    expect(toMinorUnits('350.5', 2)).toBe(35050n);
    expect(toMinorUnits('-0.01', 2)).toBe(-1n);
    expect(fromMinorUnits(35050n, 2)).toBe('350.50');
    expect(fromMinorUnits(-1n, 2)).toBe('-0.01');
    expect(fromMinorUnits(150n, 6)).toBe('0.000150');
    expect(fromMinorUnits(toMinorUnits('123456789012.345678', 6) * 3n, 6)).toBe('370370367037.037034');
  });

  test('when a value has non-zero digits beyond the scale, then it throws', () => {
    expect(() => toMinorUnits('0.001', 2)).toThrow(RangeError);
    expect(() => toMinorUnits('1e5', 2)).toThrow(RangeError);
  });
});

describe('money output schemas', () => {
  test('when a response carries money, then only canonical decimal strings pass', () => {
    expect(Money.safeParse('350.00').success).toBe(true);
    expect(Money.safeParse('350').success).toBe(false);
    expect(Money.safeParse(350).success).toBe(false);
    expect(UsdAmount.safeParse('0.000150').success).toBe(true);
    expect(UsdAmount.safeParse('0.15').success).toBe(false);
  });
});

describe('bodies with money', () => {
  test('when a tariff is saved, then the spec texts and defaults apply', () => {
    const noName = TariffInput.safeParse({ name: '   ', credits_per_ruble: 0 });
    expect(noName.error?.issues.map((issue) => issue.message)).toEqual([
      'Название обязательно',
      'Количество кредитов должно быть больше 0',
    ]);
    expect(TariffInput.parse({ name: ' Premium ', monthly_price: 350 })).toEqual({
      name: 'Premium',
      description: null,
      monthly_price: '350.00',
      credits_per_ruble: 100,
      included_credits: 0,
      can_generate_images: false,
      is_active: true,
    });
  });

  test('when a model is saved, then prices become 6-decimal strings', () => {
    const model = AiModelInput.parse({ model: 'gpt-4o-mini', input_price_per_1m: 0.15, output_price_per_1m: '0.6' });
    expect(model).toMatchObject({ input_price_per_1m: '0.150000', output_price_per_1m: '0.600000', is_active: true });
  });

  test('when a payment names both or neither of amount and tariff, then it is refused', () => {
    expect(CreatePaymentRequest.parse({ amount: 500 })).toEqual({ amount: '500.00' });
    expect(CreatePaymentRequest.parse({ tariff_id: 2 })).toEqual({ tariff_id: 2 });
    expect(CreatePaymentRequest.safeParse({}).success).toBe(false);
    expect(CreatePaymentRequest.safeParse({ amount: 500, tariff_id: 2 }).success).toBe(false);
    expect(CreatePaymentRequest.safeParse({ amount: 0.5 }).error?.issues[0]?.message).toBe(
      'Минимальная сумма пополнения 1 ₽',
    );
  });
});
