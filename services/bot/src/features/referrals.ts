import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { reply, type PrivateContext } from '../telegram/context';
import { texts } from '../telegram/texts';

/** /ref: the person's referral links (the site's and this bot's `?start=ref_CODE`) and what they brought. */
export function referralsFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  feature.command('ref', async (ctx) => {
    const summary = await deps.services.referrals(ctx.account.telegramId);
    const botLink = ctx.me.username ? `https://t.me/${ctx.me.username}?start=${summary.bot_start_payload}` : null;
    await reply(ctx, texts.referrals(summary, botLink));
  });
  return feature;
}
