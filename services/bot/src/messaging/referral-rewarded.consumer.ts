import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/** A friend's payment earned the inviter a bonus: «Бонус за друга: +N кредитов» in the inviter's chats. */
export const referralRewardedConsumer = (deps: BotDeps): BotConsumer<'referral.rewarded'> => ({
  event: 'referral.rewarded',
  async handle(trx, event) {
    return (await chatsRepository(trx).findByUser(event.data.referrer_id)).map((chat) => ({
      chat,
      html: texts.referralRewarded(event.data.credits),
    }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
