import type { MiddlewareFn } from 'grammy';
import { chatsRepository, type Chat } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import type { PrivateContext } from './context';

/** A /start payload becomes the UTM source: Telegram allows A-Z, a-z, 0-9, _ and -, up to 64 characters. */
const START_PAYLOAD = /^[\w-]{1,64}$/;
/** The payload of the site's «Связать» deep link (t.me/<bot>?start=link): /start answers as /link does. */
export const LINK_START_PAYLOAD = 'link';

/** Registers the Telegram user through auth (UTM source on first contact) and keeps their chat. */
async function register(deps: BotDeps, ctx: PrivateContext, utmSource: string | null): Promise<Chat> {
  const from = ctx.from;
  const user = await deps.services.upsertUser({
    telegram_id: from.id,
    username: from.username ?? null,
    first_name: from.first_name,
    last_name: from.last_name ?? null,
    utm_source: utmSource,
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
    } else {
      const payload = isStart ? (ctx.message?.text ?? '').split(/\s+/)[1] : undefined;
      const utmSource = payload && payload !== LINK_START_PAYLOAD && START_PAYLOAD.test(payload) ? payload : null;
      ctx.account = await register(deps, ctx, utmSource);
    }
    await next();
  };
}
