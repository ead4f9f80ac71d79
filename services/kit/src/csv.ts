/** What every CSV export of the product shares (the admin history, «Журнал действий»). */

/** `23.11.2026 21:59:04`: Moscow time, as Russian Excel reads a date and time. */
const moscowTime = new Intl.DateTimeFormat('ru-RU', {
  timeZone: 'Europe/Moscow',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export function moscowDateTime(iso: string): string {
  const parts = Object.fromEntries(moscowTime.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  return `${parts.day}.${parts.month}.${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * Spreadsheets run a cell starting with one of these as a formula (CSV injection), also behind
 * leading spaces and in their full-width forms (＝ ＋ － ＠), which some programs fold to ASCII.
 */
const FORMULA_START = /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

/** Text people typed, made safe for a spreadsheet: one that would start a formula is led by an apostrophe. */
export const typedText = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** RFC 4180: quote when needed (the separator, quotes, line breaks), double the quotes. */
export function quotedCell(text: string, separator: string): string {
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
