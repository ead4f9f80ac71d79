import type { EmailConfirmationResponse } from '@gpt/contracts';
import { attemptLimiter } from '@gpt/kit';
import type { Kysely } from 'kysely';
import type { AuthConfig } from '../config';
import type { AuthDeps } from '../deps';
import type { AuthDatabase } from '../data/schema';
import { singleUseTokensRepository } from '../data/single-use-tokens.repository';
import { type User, usersRepository } from '../data/users.repository';
import { authErrors } from './errors';
import { type Mail, sendMail } from './mailer';
import { changingProfiles } from './profile-cache';
import { newSingleUseToken, tokenHash } from './single-use-token';

const confirmationTokens = (db: Kysely<AuthDatabase>) => singleUseTokensRepository(db, 'email_confirmation_tokens');

const CONFIRMED: EmailConfirmationResponse = { success: true, message: 'E-mail подтверждён' };

const confirmationMail = (url: string, ttlHours: number) => ({
  subject: 'Подтвердите e-mail',
  text: [
    'Здравствуйте!',
    '',
    'Спасибо за регистрацию. Чтобы подтвердить e-mail и получить приветственные кредиты, откройте ссылку:',
    url,
    '',
    `Ссылка действует ${ttlHours} ч.`,
    'Если вы не регистрировались на нашем сайте, просто не открывайте её.',
  ].join('\n'),
});

/**
 * A confirmation link for a site sign-up, stored (as a hash) in the caller's transaction, valid
 * EMAIL_CONFIRMATION_TTL_HOURS; the answer is the mail to send once the transaction has committed.
 */
export async function issueEmailConfirmation(
  trx: Kysely<AuthDatabase>,
  config: AuthConfig,
  user: User & { email: string },
): Promise<Mail> {
  const { token, hash, expiresAt } = newSingleUseToken(config.EMAIL_CONFIRMATION_TTL_HOURS * 60);
  await confirmationTokens(trx).create({ hash, userId: user.id, expiresAt });
  const url = `${config.SITE_URL}/confirm-email?token=${token}`;
  return { to: user.email, ...confirmationMail(url, config.EMAIL_CONFIRMATION_TTL_HOURS) };
}

/** Sends a confirmation mail without holding up the answer; a failure is logged (the user can ask again). */
export function mailInBackground(deps: Pick<AuthDeps, 'config' | 'logger'>, mail: Mail): void {
  sendMail(deps, mail).catch((err: unknown) => deps.logger.error({ err }, 'e-mail confirmation not sent'));
}

/**
 * Following the link confirms the account once: `user.confirmed` (with the sign-up address) is
 * written with the change, and billing gives the welcome credits from it (docs/product.md, Welcome
 * credits). Following a link of an account already confirmed answers the same success, whatever the
 * link's age; an unknown link is 404, an expired one 410.
 */
export async function confirmEmail(deps: AuthDeps, token: string): Promise<EmailConfirmationResponse> {
  const hash = tokenHash(token);
  return changingProfiles(deps, async (trx, changed) => {
    const stored = await confirmationTokens(trx).findForUpdate(hash);
    if (!stored) throw authErrors.confirmationTokenUnknown();
    const user = await usersRepository(trx).findByIdForUpdate(stored.userId);
    if (!user) throw authErrors.confirmationTokenUnknown();
    if (user.emailConfirmedAt) return CONFIRMED;
    if (stored.expiresAt.getTime() <= Date.now()) throw authErrors.confirmationTokenExpired();
    const confirmed = (await usersRepository(trx).confirm(user.id))!;
    await confirmationTokens(trx).useAll(user.id);
    changed(user.id);
    await deps.bus.publish(trx, 'user.confirmed', {
      user_id: user.id,
      at: confirmed.emailConfirmedAt!.toISOString(),
      via: 'email',
      ip: user.registrationIp,
    });
    return CONFIRMED;
  });
}

/** One more confirmation mail for a signed-in, unconfirmed user: at most one a minute and EMAIL_CONFIRMATION_RESEND_PER_HOUR an hour. */
export function emailConfirmationResender(deps: AuthDeps) {
  const { config, db, kv } = deps;
  const perMinute = attemptLimiter(kv, { name: 'email-confirmation-minute', points: 1, windowSec: 60 });
  const perHour = attemptLimiter(kv, {
    name: 'email-confirmation-hour',
    points: config.EMAIL_CONFIRMATION_RESEND_PER_HOUR,
    windowSec: 3600,
  });

  return async (userId: number): Promise<EmailConfirmationResponse> => {
    const user = await usersRepository(db).findById(userId);
    if (!user) throw authErrors.accountGone();
    if (user.emailConfirmedAt || !user.email) throw authErrors.emailAlreadyConfirmed();
    const wait = (await perMinute.consume(String(userId))) || (await perHour.consume(String(userId)));
    if (wait > 0) throw authErrors.tooManyConfirmationMails(wait);
    const email = user.email;
    const mail = await db.transaction().execute((trx) => issueEmailConfirmation(trx, config, { ...user, email }));
    await sendMail(deps, mail);
    return { success: true, message: `Письмо отправлено на ${email}` };
  };
}
