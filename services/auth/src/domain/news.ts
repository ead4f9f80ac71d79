import type { BroadcastRecipientsRequest, BroadcastRecipientsResponse, NewsSubscription } from '@gpt/contracts';
import { sql } from 'kysely';
import type { AuthDeps } from '../deps';
import { authErrors } from './errors';

type Who = { id: number } | { telegramId: number };

/** Whether the user gets the bot's broadcasts («Новости и акции»). */
export async function newsOf(deps: Pick<AuthDeps, 'db'>, who: Who): Promise<NewsSubscription> {
  const query = deps.db.selectFrom('users').select('news_opt_out');
  const row = await (
    'id' in who ? query.where('id', '=', who.id) : query.where('telegram_id', '=', String(who.telegramId))
  ).executeTakeFirst();
  if (!row) throw authErrors.userNotFound();
  return { news: !row.news_opt_out };
}

/** Turns the bot's broadcasts on or off for the user (the bot's /settings, the site's account page). */
export async function setNews(deps: Pick<AuthDeps, 'db'>, who: Who, news: boolean): Promise<NewsSubscription> {
  const query = deps.db.updateTable('users').set({ news_opt_out: !news }).returning('news_opt_out');
  const row = await (
    'id' in who ? query.where('id', '=', who.id) : query.where('telegram_id', '=', String(who.telegramId))
  ).executeTakeFirst();
  if (!row) throw authErrors.userNotFound();
  return { news: !row.news_opt_out };
}

/**
 * The Telegram users of a broadcast's segment, from auth's users and its projections of billing's
 * balances and tariffs (docs/architecture.md, Calls between services); never one who blocked the bot
 * or turned broadcasts off. The bot narrows it by activity, which it knows itself.
 */
export async function broadcastRecipients(
  deps: Pick<AuthDeps, 'db'>,
  audience: BroadcastRecipientsRequest,
): Promise<BroadcastRecipientsResponse> {
  let query = deps.db
    .selectFrom('users')
    .select('telegram_id')
    .where('telegram_id', 'is not', null)
    .where('telegram_blocked_at', 'is', null)
    .where('news_opt_out', '=', false);
  if (audience.tariff_ids)
    query = query.where('tariff_id', 'in', audience.tariff_ids.length ? audience.tariff_ids : [0]);
  if (audience.paid === 'ever') query = query.where('money_deposited', '>', '0');
  if (audience.paid === 'never') query = query.where('money_deposited', '<=', '0');
  if (audience.balance_below !== null)
    query = query.where(sql<boolean>`credits + included_credits < ${audience.balance_below}`);
  if (audience.linked === true) query = query.where('email', 'is not', null);
  if (audience.linked === false) query = query.where('email', 'is', null);
  if (audience.utm_source !== null) query = query.where('utm_source', '=', audience.utm_source);
  if (audience.tariff_ends_within_days !== null)
    query = query
      .where('monthly_price', '>', '0')
      .where('tariff_end_date', '>', sql<Date>`now()`)
      .where('tariff_end_date', '<=', sql<Date>`now() + make_interval(days => ${audience.tariff_ends_within_days})`);
  const rows = await query.orderBy('id').execute();
  return { telegram_ids: rows.map((row) => Number(row.telegram_id)) };
}
