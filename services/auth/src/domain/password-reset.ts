import type { PasswordResetChannel, PasswordResetConfirmRequest, PasswordResetConfirmResponse } from '@gpt/contracts';
import type { AttemptLimiter } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import { singleUseTokensRepository } from '../data/single-use-tokens.repository';
import { usersRepository } from '../data/users.repository';
import { authErrors } from './errors';
import { sendMail } from './mailer';
import { passwordHasher } from './passwords';
import { sessionOf } from './sessions';
import { assertUsable, newSingleUseToken, tokenHash } from './single-use-token';
import { publishTokenVersion } from './token-versions';

const HOUR_MS = 60 * 60 * 1000;
const passwordResetTokensRepository = (db: Parameters<typeof singleUseTokensRepository>[0]) =>
  singleUseTokensRepository(db, 'password_reset_tokens');
/** How much of a recovery token keys its attempt counter. */
const TOKEN_PREFIX_CHARS = 8;
const resetTokenErrors = {
  unknown: authErrors.resetTokenUnknown,
  used: authErrors.resetTokenUsed,
  expired: authErrors.resetTokenExpired,
};

const resetMail = (url: string, ttlMin: number) => ({
  subject: 'Смена пароля',
  text: [
    'Здравствуйте!',
    '',
    'Кто-то (надеемся, вы) запросил смену пароля для вашего аккаунта. Чтобы задать новый пароль, откройте ссылку:',
    url,
    '',
    `Ссылка действует ${ttlMin} минут и срабатывает один раз.`,
    'Если вы не запрашивали смену пароля, просто не открывайте её: ваш пароль останется прежним.',
  ].join('\n'),
});

/** The Telegram account reset links go to: the linked one, if its owner chose it while it was linked. */
async function resetTelegramOf(db: AuthDeps['db'], userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select(['telegram_id', 'reset_telegram_id'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) throw authErrors.userNotFound();
  return row.telegram_id !== null && String(row.telegram_id) === String(row.reset_telegram_id)
    ? String(row.telegram_id)
    : null;
}

/** Where the signed-in owner's reset links go. */
export async function passwordResetChannel(deps: Pick<AuthDeps, 'db'>, userId: number): Promise<PasswordResetChannel> {
  return { telegram: (await resetTelegramOf(deps.db, userId)) !== null };
}

/**
 * The signed-in owner chooses where reset links go: to the Telegram account linked now (409 when none is),
 * or back to the e-mail. The choice names that Telegram account, so linking another one lapses it.
 */
export async function setPasswordResetChannel(
  deps: Pick<AuthDeps, 'db'>,
  userId: number,
  channel: PasswordResetChannel,
): Promise<PasswordResetChannel> {
  const row = await deps.db
    .updateTable('users')
    .set((eb) => ({ reset_telegram_id: channel.telegram ? eb.ref('telegram_id') : null }))
    .where('id', '=', userId)
    .returning(['telegram_id'])
    .executeTakeFirst();
  if (!row) throw authErrors.userNotFound();
  if (channel.telegram && row.telegram_id === null) throw authErrors.telegramNotLinked();
  return passwordResetChannel(deps, userId);
}

/**
 * A recovery link for the account with this e-mail, if there is one and it has not had its hourly
 * allowance of links: stored as a hash, valid PASSWORD_RESET_TTL_MIN minutes, and mailed. Only when the
 * owner chose so, signed in (`setPasswordResetChannel`), it goes to the linked Telegram account instead
 * (`password_reset.requested` with the link); otherwise a linked Telegram account is only told that a
 * link was mailed, so whoever holds it cannot take the account over. Nothing here tells the caller
 * whether the e-mail exists: the route answers before this runs.
 */
export async function requestPasswordReset(deps: AuthDeps, email: string): Promise<void> {
  const { bus, config, db, logger } = deps;
  const user = await usersRepository(db).findByEmail(email);
  if (!user?.email) return;
  const issued = await passwordResetTokensRepository(db).countSince(user.id, new Date(Date.now() - HOUR_MS));
  if (issued >= config.PASSWORD_RESET_PER_HOUR) {
    logger.info({ userId: user.id }, 'password reset refused: hourly allowance used');
    return;
  }

  const { token, hash, expiresAt } = newSingleUseToken(config.PASSWORD_RESET_TTL_MIN);
  const url = `${config.SITE_URL}/reset-password/${token}`;
  const toTelegram = await resetTelegramOf(db, user.id);
  await bus.transaction(async (trx) => {
    await passwordResetTokensRepository(trx).create({ hash, userId: user.id, expiresAt });
    if (user.telegramId !== null) {
      await bus.publish(trx, 'password_reset.requested', {
        user_id: user.id,
        telegram_id: Number(user.telegramId),
        expires_at: expiresAt.toISOString(),
        ...(toTelegram !== null ? { reset_url: url } : {}),
      });
    }
  });
  if (toTelegram === null) {
    await sendMail(deps, { to: user.email, ...resetMail(url, config.PASSWORD_RESET_TTL_MIN) });
  }
}

/**
 * A new password by a recovery link: the link is used once, every other open link of the user is
 * voided, every older session is revoked, and the answer signs the user in anew.
 */
export async function confirmPasswordReset(
  deps: AuthDeps,
  attemptsPerToken: AttemptLimiter,
  input: PasswordResetConfirmRequest,
): Promise<PasswordResetConfirmResponse> {
  const { config, db, kv } = deps;
  // Guesses share a counter per token prefix, whatever address they come from (the gateway counts per address).
  const wait = await attemptsPerToken.consume(input.token.slice(0, TOKEN_PREFIX_CHARS));
  if (wait > 0) throw authErrors.tooManyResetAttempts(wait);
  const hash = tokenHash(input.token);
  // The token is checked before the password is hashed: a wrong link costs no hashing.
  assertUsable(await passwordResetTokensRepository(db).find(hash), resetTokenErrors);
  const passwordHash = await passwordHasher(config).hash(input.newPassword);
  const user = await db.transaction().execute(async (trx) => {
    const reset = assertUsable(await passwordResetTokensRepository(trx).findForUpdate(hash), resetTokenErrors);
    const changed = await usersRepository(trx).setPassword(reset.userId, passwordHash);
    await passwordResetTokensRepository(trx).useAll(reset.userId);
    await publishTokenVersion(kv, changed);
    return changed;
  });
  return { ...sessionOf(config, user), message: 'Пароль изменён. Вы вошли с новым паролем' };
}
