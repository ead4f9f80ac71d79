/** A bigint column (read as a string) as a JSON-safe integer; credits never get near 2^53. */
export function toSafeInt(value: string | number | bigint): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`${String(value)} is not a safe integer`);
  return number;
}
