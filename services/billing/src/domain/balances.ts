import type { BalanceSnapshot, BotBalanceResponse } from '@gpt/contracts';
import type { BillingDeps } from '../deps';
import { availableCredits, balancesRepository, type Balance } from '../data/balances.repository';
import { usersRepository } from '../data/users.repository';
import { ledgerIn, toSnapshot } from './ledger';
import { billingErrors } from './errors';
import { knownUser } from './known-users';

/** A user's balance; a user billing has not seen yet starts on Base with 0 credits. */
export async function balanceOf(deps: BillingDeps, userId: number): Promise<BalanceSnapshot> {
  return toSnapshot(await readBalance(deps, userId));
}

/** The bot asks whether a Telegram user may send a paid request: allowed while credits are available beyond its holds. */
export async function botBalance(deps: BillingDeps, telegramId: number): Promise<BotBalanceResponse> {
  const user = await knownUser(deps, { telegramId });
  if (!user) throw billingErrors.userNotFound();
  const balance = await readBalance(deps, user.id);
  const snapshot = toSnapshot(balance);
  const available = availableCredits(balance);
  return {
    user_id: user.id,
    telegram_id: telegramId,
    credits: balance.credits,
    included_credits: balance.includedCredits,
    held_credits: balance.heldCredits,
    available_credits: available,
    can_send: available > 0,
    can_generate_images: balance.tariff.canGenerateImages,
    tariff: snapshot.tariff,
    welcome_credits: balance.welcomeCredits,
  };
}

/** The balance holding `userId`'s money (a merged account's survivor), created on first sight. */
export async function readBalance(deps: BillingDeps, userId: number): Promise<Balance> {
  const holder = await usersRepository(deps.db).resolve(userId);
  const existing = await balancesRepository(deps.db).find(holder);
  if (existing) return existing;
  return deps.bus.transaction(async (trx) => {
    await ledgerIn(trx, deps.bus).ensure(holder);
    const created = await balancesRepository(trx).find(holder);
    if (!created) throw new Error(`no balance for user ${holder}`);
    return created;
  });
}
