import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { AuthResponse, BotSignInLinkResponse, TelegramWidgetInfo, TelegramWidgetLogin } from '@gpt/contracts';
import { badRequest, unauthorized } from '@gpt/kit';
import { singleUseTokensRepository } from '../data/single-use-tokens.repository';
import { usersRepository } from '../data/users.repository';
import type { AuthDeps } from '../deps';
import { upsertBotUser } from './bot-users';
import { authErrors } from './errors';
import { sessionOf } from './sessions';
import { assertUsable, newSingleUseToken, tokenHash } from './single-use-token';

const LINK_REFUSED = 'Ссылка для входа устарела или уже использована. Попросите новую в боте командой /web.';
const WIDGET_REFUSED = 'Не удалось проверить вход через Telegram.';
/** The widget's data is believed this long after Telegram signed it. */
const WIDGET_FRESH_SEC = 24 * 60 * 60;

const linkRefused = () => badRequest(LINK_REFUSED, 'sign_in_link_invalid');
const widgetRefused = () => unauthorized(WIDGET_REFUSED, 'telegram_widget_invalid');

/** The bot's `/web`: a single-use link that signs the Telegram user in on the site as themselves. */
export async function issueSignInLink(deps: AuthDeps, telegramId: number): Promise<BotSignInLinkResponse> {
  const user = await usersRepository(deps.db).findByTelegramId(String(telegramId));
  if (!user) throw authErrors.userNotFound();
  const { token, hash, expiresAt } = newSingleUseToken(deps.config.SIGN_IN_LINK_TTL_MIN);
  await singleUseTokensRepository(deps.db, 'sign_in_tokens').create({ hash, userId: user.id, expiresAt });
  return { token, expires_at: expiresAt.toISOString() };
}

/** The link's page signs in: the token is used once (with every other open one of the user) and a session given. */
export async function signInWithLink(deps: AuthDeps, token: string): Promise<AuthResponse> {
  const userId = await deps.db.transaction().execute(async (trx) => {
    const tokens = singleUseTokensRepository(trx, 'sign_in_tokens');
    const stored = assertUsable(await tokens.findForUpdate(tokenHash(token)), {
      unknown: linkRefused,
      used: linkRefused,
      expired: linkRefused,
    });
    await tokens.useAll(stored.userId);
    return stored.userId;
  });
  const user = await usersRepository(deps.db).findById(userId);
  if (!user) throw linkRefused();
  return sessionOf(deps.config, user);
}

export function telegramWidgetInfo(deps: AuthDeps): TelegramWidgetInfo {
  const { TELEGRAM_BOT_TOKEN, TELEGRAM_BOT_USERNAME } = deps.config;
  return { botUsername: TELEGRAM_BOT_TOKEN && TELEGRAM_BOT_USERNAME ? TELEGRAM_BOT_USERNAME : null };
}

/**
 * Whether the widget's data is Telegram's (https://core.telegram.org/widgets/login): the fields but
 * `hash`, sorted, as `key=value` lines, signed with HMAC-SHA256 under SHA-256 of the bot's token.
 */
export function widgetHashValid(botToken: string, login: TelegramWidgetLogin): boolean {
  const checked = Object.entries(login)
    .filter(([key, value]) => key !== 'hash' && value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`)
    .sort()
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(checked).digest();
  const given = Buffer.from(login.hash, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** «Войти через Telegram»: the signed widget data signs in the Telegram user's account (made on first sight, as /start would). */
export async function signInWithWidget(deps: AuthDeps, login: TelegramWidgetLogin): Promise<AuthResponse> {
  const botToken = deps.config.TELEGRAM_BOT_TOKEN;
  if (!botToken || !widgetHashValid(botToken, login)) throw widgetRefused();
  if (Date.now() / 1000 - login.auth_date > WIDGET_FRESH_SEC) throw widgetRefused();
  const botUser = await upsertBotUser(deps, {
    telegram_id: login.id,
    username: login.username ?? null,
    first_name: login.first_name,
    last_name: login.last_name ?? null,
    utm_source: null,
    referral_code: null,
  });
  const user = await usersRepository(deps.db).findById(botUser.id);
  if (!user) throw widgetRefused();
  return sessionOf(deps.config, user);
}
