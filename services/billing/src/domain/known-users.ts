import { internalTelegramUserPath, internalUserPath, UserUpdatedData } from '@gpt/contracts';
import { serviceFetch } from '@gpt/kit';
import { usersRepository, type BillingUser } from '../data/users.repository';
import type { BillingDeps } from '../deps';
import { welcomeBotUser } from './welcome-grant';

/** How long a read-through of auth may take before the caller is told the user is not known yet. */
const READ_TIMEOUT_MS = 3_000;

/** Asks auth for a user's snapshot with the caller's credentials; null when auth does not answer it. */
async function readFromAuth(deps: BillingDeps, path: string, headers: Record<string, string>) {
  try {
    const response = await serviceFetch(new URL(path, deps.config.AUTH_URL), {
      headers,
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
    if (!response.ok) {
      // 404: auth does not know the user either; anything else is worth a look.
      if (response.status !== 404)
        deps.logger.warn({ path, status: response.status }, 'auth refused a read-through of a user');
      return null;
    }
    const snapshot = UserUpdatedData.safeParse(await response.json());
    return snapshot.success ? snapshot.data : null;
  } catch (err) {
    deps.logger.warn({ err, path }, 'could not read a user through from auth');
    return null;
  }
}

/**
 * billing's copy of a user, by id or Telegram id. A user whose snapshot has not come by event yet
 * (a payment or a hold a moment after sign-up) is read through from auth with the caller's own
 * credentials and kept under the version rule, so the event, when it comes, changes nothing.
 */
export async function knownUser(
  deps: BillingDeps,
  key: { id: number; authorization?: string } | { telegramId: number },
): Promise<BillingUser | null> {
  const users = usersRepository(deps.db);
  const find = () => ('id' in key ? users.find(key.id) : users.findByTelegramId(key.telegramId));
  const known = await find();
  if (known) return known;
  const snapshot =
    'id' in key
      ? await readFromAuth(
          deps,
          internalUserPath(key.id),
          key.authorization ? { Authorization: key.authorization } : {},
        )
      : await readFromAuth(deps, internalTelegramUserPath(key.telegramId), { 'X-Bot-Key': deps.config.BOT_API_KEY });
  if (!snapshot) return null;
  await users.upsertSnapshot(snapshot);
  // A Telegram user without an e-mail is the bot's own, confirmed by the /start that registered them: their
  // welcome grant comes with the balance, so the first answer after /start already has it (whichever of this
  // and user.registered comes first grants; the grant's reference keeps it once).
  if ('telegramId' in key && snapshot.email === null) {
    await deps.bus.transaction((trx) =>
      welcomeBotUser(trx, deps.bus, { userId: snapshot.user_id, telegramId: snapshot.telegram_id }),
    );
  }
  return find();
}
