import type { HistoryMessage } from '@gpt/contracts';

/** The columns of the export, in order. */
const COLUMNS = [
  'id',
  'created_at',
  'user_id',
  'telegram_id',
  'username',
  'first_name',
  'last_name',
  'user_deleted',
  'model',
  'status',
  'input_tokens',
  'output_tokens',
  'input_cost',
  'output_cost',
  'total_cost',
  'cost',
  'user_message',
  'bot_response',
  'error_message',
  'image_path',
] as const satisfies readonly (keyof HistoryMessage)[];

/** Fields people typed: a spreadsheet must not read them as formulas. */
const TYPED_TEXT = new Set<string>([
  'username',
  'first_name',
  'last_name',
  'user_message',
  'bot_response',
  'error_message',
]);

/**
 * Spreadsheets run a cell starting with one of these as a formula (CSV injection), also behind
 * leading spaces and in their full-width forms (＝ ＋ － ＠), which some programs fold to ASCII.
 */
const FORMULA_START = /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

/** RFC 4180: quote when needed, double the quotes. */
function cell(value: unknown, typedText: boolean): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typedText && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** UTF-8 BOM, so spreadsheet programs read the Cyrillic right, and the header line. */
export const CSV_HEAD = `\uFEFF${COLUMNS.join(',')}\r\n`;

export function csvRows(messages: HistoryMessage[]): string {
  return messages
    .map((message) => `${COLUMNS.map((column) => cell(message[column], TYPED_TEXT.has(column))).join(',')}\r\n`)
    .join('');
}
