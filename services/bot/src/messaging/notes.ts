import type { Chat } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { sendWithButtons } from '../telegram/send';

type Keyboard = Parameters<typeof sendWithButtons>[3];

/** A message to a user that an event handler decided on. */
export interface Note {
  chat: Chat;
  html: string;
  keyboard?: Keyboard;
}

/**
 * Telegram messages that event handlers decide inside their transaction and that are sent once it
 * has committed: Telegram's limits may queue a message for seconds, and that wait must never hold a
 * database connection; a handler that fails and is retried starts its notes again, so each is sent
 * once. A user who blocked the bot, or Telegram being off, is logged and not redelivered.
 */
export function afterCommitNotes(deps: Pick<BotDeps, 'telegram' | 'logger'>) {
  const pending = new Map<string, Note[]>();
  return {
    /** The notes of this attempt at handling the event (empty; a retry starts afresh). */
    begin(eventId: string): Note[] {
      const notes: Note[] = [];
      pending.set(eventId, notes);
      return notes;
    },
    /** Sends what the committed handler noted, in order, without holding up the consumer. */
    send(eventId: string): void {
      const notes = pending.get(eventId) ?? [];
      pending.delete(eventId);
      const telegram = deps.telegram.api();
      if (!telegram || notes.length === 0) return;
      void (async () => {
        for (const note of notes) {
          try {
            await sendWithButtons(telegram, note.chat.chatId, note.html, note.keyboard);
          } catch (err) {
            deps.logger.warn({ err, telegramId: note.chat.telegramId }, 'could not notify the user in Telegram');
          }
        }
      })();
    },
  };
}
export type AfterCommitNotes = ReturnType<typeof afterCommitNotes>;
