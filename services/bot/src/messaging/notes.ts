import type { Consumer, EventSchemas } from '@gpt/kit';
import type { Chat } from '../data/chats.repository';
import type { BotDatabase } from '../data/schema';
import type { BotDeps } from '../deps';
import { sendWithButtons } from '../telegram/send';

type Keyboard = Parameters<typeof sendWithButtons>[3];

/** A message to a user that an event handler decided on. */
export interface Note {
  chat: Chat;
  html: string;
  keyboard?: Keyboard;
}

/** A bot consumer: what `before` fetched goes to `handle`, whose notes are sent after the commit. */
export type BotConsumer<K extends keyof EventSchemas & string, Before = void> = Consumer<
  BotDatabase,
  EventSchemas,
  K,
  Before,
  Note[]
>;

/**
 * Sends, in order, the Telegram messages an event handler decided on inside its transaction and
 * returned: a consumer calls this from `afterCommit`, since Telegram's limits may queue a message for
 * seconds and that wait must never hold a database connection (a handler that fails and is retried
 * returns its notes again, so each is sent once). It does not hold up the consumer. A user who
 * blocked the bot (docs/architecture.md, The bot) is not written to until they write again;
 * Telegram being off is logged and not redelivered.
 */
export function sendNotes(deps: Pick<BotDeps, 'telegram' | 'logger'>, notes: Note[]): void {
  const telegram = deps.telegram.api();
  if (!telegram || notes.length === 0) return;
  void (async () => {
    for (const note of notes) {
      if (note.chat.blockedAt) continue;
      try {
        await sendWithButtons(telegram, note.chat.chatId, note.html, note.keyboard);
      } catch (err) {
        deps.logger.warn({ err, telegramId: note.chat.telegramId }, 'could not notify the user in Telegram');
      }
    }
  })();
}
