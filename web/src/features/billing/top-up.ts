/** A top-up amount as typed ("350", "99,9") checked like the server does; answers roubles or the error text. */
export function parseTopUp(text: string): { amount: string } | { error: string } {
  const normalized = text.trim().replace(',', '.');
  if (normalized === '') return { error: 'Введите сумму пополнения' };
  if (!/^\d+(\.\d+)?$/.test(normalized)) return { error: 'Сумма должна быть числом' };
  if (!/^\d+(\.\d{1,2})?$/.test(normalized)) return { error: 'Сумма: не более 2 знаков после запятой' };
  const [whole = '0', fraction = ''] = normalized.split('.');
  const kopecks = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (kopecks < 100n) return { error: 'Минимальная сумма пополнения 1 ₽' };
  if (kopecks > 100_000_000n) return { error: 'Максимальная сумма пополнения 1 000 000 ₽' };
  return { amount: `${kopecks / 100n}.${String(kopecks % 100n).padStart(2, '0')}` };
}

/** Credits a top-up buys: kopecks × credits per rouble / 100, rounded down (as billing counts). */
export function creditsFor(amount: string, creditsPerRuble: number): number {
  const [whole = '0', fraction = '00'] = amount.split('.');
  const kopecks = BigInt(whole) * 100n + BigInt(fraction);
  return Number((kopecks * BigInt(creditsPerRuble)) / 100n);
}
