import { subscriptionNoticeMail } from '@gpt/contracts';
import type { Consumer, EventSchemas } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import type { AuthDatabase } from '../data/schema';
import { usersRepository } from '../data/users.repository';
import { sendMail } from '../domain/mailer';

/**
 * What billing tells a subscription's owner (started, renewed, a reminder before the charge, a decline, the end, a
 * cancellation) is mailed once to their address — the receipt e-mail of a Telegram user, else the account's
 * (docs/money.md, Subscriptions). A user with no address hears it only in the bot.
 */
export const subscriptionNoticeConsumer = (
  deps: AuthDeps,
): Consumer<AuthDatabase, EventSchemas, 'subscription.notice', undefined, string | null> => ({
  event: 'subscription.notice',
  async handle(trx, event) {
    const user = await usersRepository(trx).findById(event.data.user_id);
    return user?.telegramEmail ?? user?.email ?? null;
  },
  afterCommit(event, address) {
    if (!address) return;
    const { subject, text } = subscriptionNoticeMail(event.data);
    void sendMail(deps, { to: address, subject, text }).catch((err: unknown) =>
      deps.logger.error({ err, notice: event.data.notice_id }, 'a subscription notice was not mailed'),
    );
  },
});
