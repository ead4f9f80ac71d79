import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { botLink } from '../telegram/bot-link';
import { reply, type PrivateContext } from '../telegram/context';
import { texts } from '../telegram/texts';

/**
 * /ref: the person's referral links (the site's and this bot's `?start=ref_CODE`, on the sandbox its
 * page's) and what they brought.
 */
export function referralsFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  feature.command('ref', async (ctx) => {
    const summary = await deps.services.referrals(ctx.account.telegramId);
    await reply(ctx, texts.referrals(summary, botLink(deps, ctx.me.username, summary.bot_start_payload)));
  });
  return feature;
}
