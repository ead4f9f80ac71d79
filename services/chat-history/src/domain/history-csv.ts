import { personName, type HistoryExportFormat, type HistoryMessage } from '@gpt/contracts';
import { moscowDateTime, quotedCell, typedText } from '@gpt/kit';

/**
 * The columns of the export, in order: the message's fields, plus `user`, the person as the product names
 * them everywhere (`personName`); the raw name fields stay for whoever filters or joins on them.
 */
const COLUMNS = [
  'id',
  'created_at',
  'user_id',
  'telegram_id',
  'user',
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
] as const satisfies readonly (keyof HistoryMessage | 'user')[];
type Column = (typeof COLUMNS)[number];

/** Fields people typed: a spreadsheet must not read them as formulas. */
const TYPED_TEXT = new Set<Column>([
  'user',
  'username',
  'first_name',
  'last_name',
  'user_message',
  'bot_response',
  'error_message',
]);

/** Dollar amounts with fractions: the decimal separator follows the format. */
const DECIMALS = new Set<Column>(['input_cost', 'output_cost', 'total_cost']);

/** The headers of the Russian Excel format. */
const RUSSIAN_HEADERS: Record<Column, string> = {
  id: 'ID',
  created_at: 'Дата (МСК)',
  user_id: 'ID пользователя',
  telegram_id: 'Telegram ID',
  user: 'Пользователь',
  username: 'Имя пользователя',
  first_name: 'Имя',
  last_name: 'Фамилия',
  user_deleted: 'Пользователь удалён',
  model: 'Модель',
  status: 'Статус',
  input_tokens: 'Токены запроса',
  output_tokens: 'Токены ответа',
  input_cost: 'Стоимость запроса ($)',
  output_cost: 'Стоимость ответа ($)',
  total_cost: 'Стоимость ($)',
  cost: 'Списано кредитов',
  user_message: 'Сообщение',
  bot_response: 'Ответ бота',
  error_message: 'Ошибка',
  image_path: 'Изображение',
};

/** How one format writes a table: both are UTF-8 with a BOM (spreadsheet programs read the Cyrillic right). */
interface CsvDialect {
  separator: string;
  header: (column: Column) => string;
  decimal: (value: string) => string;
  date: (iso: string) => string;
  boolean: (value: boolean) => string;
}

const DIALECTS: Record<HistoryExportFormat, CsvDialect> = {
  // RFC 4180 with the API's values as they are: ISO dates in UTC, decimal points.
  csv: {
    separator: ',',
    header: (column) => column,
    decimal: (value) => value,
    date: (iso) => iso,
    boolean: String,
  },
  // What Russian Excel opens by a double click: `;` between cells, decimal commas, Moscow time.
  excel: {
    separator: ';',
    header: (column) => RUSSIAN_HEADERS[column],
    decimal: (value) => value.replace('.', ','),
    date: moscowDateTime,
    boolean: (value) => (value ? 'да' : 'нет'),
  },
};

function cell(message: HistoryMessage, column: Column, dialect: CsvDialect): string {
  const value = column === 'user' ? personName(message) : message[column];
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return dialect.boolean(value);
  let text = String(value);
  if (column === 'created_at') text = dialect.date(text);
  else if (DECIMALS.has(column)) text = dialect.decimal(text);
  else if (TYPED_TEXT.has(column)) text = typedText(text);
  return quotedCell(text, dialect.separator);
}

/** The BOM and the header line of a format. */
export function csvHead(format: HistoryExportFormat): string {
  const dialect = DIALECTS[format];
  return `\uFEFF${COLUMNS.map((column) => quotedCell(dialect.header(column), dialect.separator)).join(dialect.separator)}\r\n`;
}

export function csvRows(messages: HistoryMessage[], format: HistoryExportFormat): string {
  const dialect = DIALECTS[format];
  return messages
    .map((message) => `${COLUMNS.map((column) => cell(message, column, dialect)).join(dialect.separator)}\r\n`)
    .join('');
}
