import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/** An admin answered a linked user's support request: the answer goes to their chats. */
export const supportAnsweredConsumer = (deps: BotDeps): BotConsumer<'support.answered'> => ({
  event: 'support.answered',
  async handle(trx, event) {
    const { channel, user_id, subject, answer } = event.data;
    if (channel !== 'telegram' || user_id === null) return [];
    return (await chatsRepository(trx).findByUser(user_id)).map((chat) => ({
      chat,
      html: texts.supportAnswer(subject, answer),
    }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
