import { BOT_REFERRAL_PREFIX } from '@gpt/contracts';
import type { MiddlewareFn } from 'grammy';
import { chatsRepository, type Chat } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import type { PrivateContext } from './context';

/** A /start payload (Telegram allows A-Z, a-z, 0-9, _ and -, up to 64 characters): a referral code or the UTM source. */
const START_PAYLOAD = /^[\w-]{1,64}$/;
/** The payload of the site's «Связать» deep link (t.me/<bot>?start=link): /start answers as /link does. */
export const LINK_START_PAYLOAD = 'link';
/** When a user last wrote is kept to the hour: a write per hour and user at most. */
const ACTIVITY_PRECISION_MS = 60 * 60 * 1000;

/** Where a /start came from: a friend's referral link (`ref_CODE`) or a campaign's UTM source. */
function attribution(payload: string | undefined): { utmSource: string | null; referralCode: string | null } {
  if (!payload || payload === LINK_START_PAYLOAD || !START_PAYLOAD.test(payload)) {
    return { utmSource: null, referralCode: null };
  }
  if (payload.startsWith(BOT_REFERRAL_PREFIX)) {
    return { utmSource: null, referralCode: payload.slice(BOT_REFERRAL_PREFIX.length) };
  }
  return { utmSource: payload, referralCode: null };
}

/**
 * Registers the Telegram user through auth (UTM source and inviter on first contact only: auth
 * ignores both for a known user) and keeps their chat.
 */
async function register(deps: BotDeps, ctx: PrivateContext, payload: string | undefined): Promise<Chat> {
  const { utmSource, referralCode } = attribution(payload);
  const from = ctx.from;
  const user = await deps.services.upsertUser({
    telegram_id: from.id,
    username: from.username ?? null,
    first_name: from.first_name,
    last_name: from.last_name ?? null,
    utm_source: utmSource,
    referral_code: referralCode,
    language_code: from.language_code ?? null,
  });
  return chatsRepository(deps.db).upsert({
    telegramId: from.id,
    userId: user.id,
    chatId: ctx.chat.id,
    webLinked: user.web_linked,
  });
}

/** Puts the update's Telegram user on the context: known ones from the bot's table, others (and every /start) through auth. */
export function account(deps: BotDeps): MiddlewareFn<PrivateContext> {
  return async (ctx, next) => {
    if (!ctx.from) return;
    const known = await chatsRepository(deps.db).find(ctx.from.id);
    const isStart = ctx.message?.text?.startsWith('/start') ?? false;
    ctx.firstContact = !known;
    if (known && !isStart) {
      ctx.account = known;
      if (Date.now() - (known.lastActiveAt?.getTime() ?? 0) > ACTIVITY_PRECISION_MS)
        await chatsRepository(deps.db).active(known.telegramId);
    } else {
      const payload = isStart ? (ctx.message?.text ?? '').split(/\s+/)[1] : undefined;
      ctx.account = await register(deps, ctx, payload);
    }
    await next();
  };
}
