import type { AdminModesQuery, ChatMode } from '@gpt/contracts';
import type { Logger } from '@gpt/kit';
import type { Kysely } from 'kysely';
import { type ChatModeFields, modesRepository } from '../data/modes.repository';
import type { ChatHistoryDatabase } from '../data/schema';
import { chatHistoryErrors } from './errors';

/** The modes a new installation starts with; the admin edits them on /admin/modes. */
export const DEFAULT_MODES: ChatModeFields[] = [
  {
    name: 'Ассистент',
    emoji: '🤖',
    description: 'Отвечает на любые вопросы',
    system_prompt:
      'Ты — полезный ассистент в Telegram. Отвечай на языке собеседника, по существу; форматируй Markdown: **жирный**, списки, блоки кода.',
    is_active: true,
    sort_order: 10,
    is_default: true,
  },
  {
    name: 'Переводчик',
    emoji: '🌍',
    description: 'Переводит текст: русский ⇄ другие языки',
    system_prompt:
      'Ты — профессиональный переводчик. Если текст на русском, переведи его на английский; если на другом языке — на русский. ' +
      'Если пользователь явно назвал язык, переводи на него. Сохраняй смысл, тон и форматирование; отвечай только переводом, без пояснений.',
    is_active: true,
    sort_order: 20,
    is_default: false,
  },
  {
    name: 'Редактор текстов',
    emoji: '✍️',
    description: 'Исправляет ошибки и улучшает стиль',
    system_prompt:
      'Ты — литературный редактор. Исправь орфографию, пунктуацию и грамматику присланного текста, сделай его ясным и читаемым, ' +
      'сохрани смысл и голос автора. Сначала дай исправленный текст целиком, затем коротко перечисли главные правки.',
    is_active: true,
    sort_order: 30,
    is_default: false,
  },
  {
    name: 'Программист',
    emoji: '💻',
    description: 'Пишет и объясняет код, ищет ошибки',
    system_prompt:
      'Ты — опытный разработчик. Пиши рабочий, понятный код в блоках с указанием языка, объясняй решения кратко, ' +
      'указывай на ошибки и риски (безопасность, производительность). Если задача неясна, задай уточняющий вопрос.',
    is_active: true,
    sort_order: 40,
    is_default: false,
  },
  {
    name: 'Репетитор',
    emoji: '🎓',
    description: 'Объясняет темы шаг за шагом',
    system_prompt:
      'Ты — терпеливый репетитор. Объясняй просто и по шагам, с примерами из жизни; проверяй понимание вопросом в конце. ' +
      'Не решай задачу за ученика сразу: сначала подскажи путь, полное решение — по просьбе.',
    is_active: true,
    sort_order: 50,
    is_default: false,
  },
];

export function modesUseCases(db: Kysely<ChatHistoryDatabase>, logger: Logger) {
  const modes = modesRepository(db);
  const inTransaction = <T>(work: (repository: ReturnType<typeof modesRepository>) => Promise<T>) =>
    db.transaction().execute((trx) => work(modesRepository(trx)));

  return {
    /** On the first start (no mode at all) the default modes are created; replicas starting together seed once. */
    async seed(): Promise<void> {
      const created = await inTransaction((repository) => repository.insertIfNone(DEFAULT_MODES));
      if (created > 0) logger.info({ created }, 'default chat modes created');
    },

    list: (query: AdminModesQuery) => modes.list(query, query.q),

    listActive: () => modes.listActive(),

    async create(fields: ChatModeFields): Promise<ChatMode> {
      const created = await inTransaction((repository) => repository.create(fields));
      if (!created) throw chatHistoryErrors.modeExists(fields.name);
      return created;
    },

    /** The default mode stays the default until another mode is made the default. */
    update: (id: number, fields: ChatModeFields): Promise<ChatMode> =>
      inTransaction(async (repository) => {
        const current = await repository.findById(id);
        if (!current) throw chatHistoryErrors.modeNotFound();
        if (current.is_default && !fields.is_default) throw chatHistoryErrors.defaultModeRequired();
        const updated = await repository.update(id, fields);
        if (updated === 'duplicate') throw chatHistoryErrors.modeExists(fields.name);
        if (!updated) throw chatHistoryErrors.modeNotFound();
        return updated;
      }),

    remove: (id: number): Promise<void> =>
      inTransaction(async (repository) => {
        const current = await repository.findById(id);
        if (!current) throw chatHistoryErrors.modeNotFound();
        if (current.is_default) throw chatHistoryErrors.defaultModeInUse();
        await repository.delete(id);
      }),
  };
}
