import type { ConversationMessage } from '../data/conversations.repository';

const moscowTime = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Moscow',
});
const DOORS = { telegram: 'Telegram', web: 'сайт' } as const;
const STATUS_NOTES = {
  done: '',
  streaming: ' (ответ ещё идёт)',
  stopped: ' (остановлен)',
  failed: ' (прерван)',
} as const;

/** «Экспорт»: the conversation as Markdown, each message with its time (Moscow), door and, for answers, model. */
export function conversationMarkdown(title: string, messages: ConversationMessage[]): string {
  const lines = [`# ${title}`, '', `Экспорт чата от ${moscowTime.format(new Date())} (время московское).`, ''];
  for (const message of messages) {
    const when = moscowTime.format(message.createdAt);
    const who =
      message.role === 'user'
        ? `Вы, ${DOORS[message.door]}`
        : `Модель ${message.model ?? ''}${STATUS_NOTES[message.status]}`.replace(/\s+/g, ' ');
    lines.push(`## ${who} — ${when}`, '', message.text, '');
  }
  return lines.join('\n');
}
