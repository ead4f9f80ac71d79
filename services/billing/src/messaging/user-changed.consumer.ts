import type { BillingDeps } from '../deps';
import { usersRepository } from '../data/users.repository';
import { ledgerIn } from '../domain/ledger';
import { grantWelcomeCredits, welcomeBotUser } from '../domain/welcome-grant';
import type { BillingConsumer } from './consumer';

/**
 * auth's user snapshots keep billing's projection (receipt e-mail, names for the payments screen,
 * Telegram id for the bot); a user seen for the first time gets a balance on Base, announced
 * with `credits.changed` (reason 'initial') so auth's projection of the balance fills. A person
 * gets the welcome grant once their account is confirmed (`user.confirmed`: the e-mail link on
 * the site; a bot user at registration, the first /start).
 */
export function userChangedConsumers(
  deps: BillingDeps,
): [BillingConsumer<'user.registered'>, BillingConsumer<'user.confirmed'>, BillingConsumer<'user.updated'>] {
  return [
    {
      event: 'user.registered',
      async handle(trx, event) {
        await usersRepository(trx).upsertSnapshot(event.data);
        // A bot user's first /start is their confirmation (auth announces it as user.confirmed too):
        // granted here, with the projection (or earlier, when the bot's first call read the user through
        // from auth: known-users.ts); whichever billing handles first grants, the reference keeps it once.
        if (event.data.source === 'telegram') {
          await welcomeBotUser(trx, deps.bus, { userId: event.data.user_id, telegramId: event.data.telegram_id });
        } else await ledgerIn(trx, deps.bus).ensure(event.data.user_id);
      },
    },
    {
      event: 'user.confirmed',
      async handle(trx, event) {
        await ledgerIn(trx, deps.bus).ensure(event.data.user_id);
        // A bot user's grant came with user.registered, under their Telegram person's reference.
        if (event.data.via === 'telegram') return;
        await grantWelcomeCredits(trx, deps.bus, event.data);
      },
    },
    {
      event: 'user.updated',
      async handle(trx, event) {
        await usersRepository(trx).upsertSnapshot(event.data);
        await ledgerIn(trx, deps.bus).ensure(event.data.user_id);
      },
    },
  ];
}
