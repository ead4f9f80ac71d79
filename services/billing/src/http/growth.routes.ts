import { idempotencyStore, routeHandlers } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { botRedeemPromoCode, managePromoCodes, redeemPromoCode } from '../domain/promo-codes';
import { botReferralSummary, referralStats, referralSummary } from '../domain/referrals';

/**
 * Referrals and promo codes: the personal account's «Пригласить друга» and «Промокод», the bot's `/ref`
 * and `/promo КОД`, the admin's promo codes screen and the dashboard's referral tile.
 */
export function growthRoutes(deps: BillingDeps) {
  const promoCodes = managePromoCodes(deps);
  const idempotency = idempotencyStore({ ...deps, service: 'billing' });
  return routeHandlers('billing', {
    getBillingReferrals: ({ claims, req }) => referralSummary(deps, Number(claims.sub), req.headers.authorization),
    postBillingPromoCodesRedeem: ({ claims, body }) => redeemPromoCode(deps, Number(claims.sub), body.code),
    getBotReferrals: ({ query }) => botReferralSummary(deps, query.telegram_id),
    postBotPromoCodesRedeem: ({ body }) => botRedeemPromoCode(deps, body.telegram_id, body.code),
    getAdminReferralsStats: () => referralStats(deps),
    getAdminPromoCodes: ({ query }) => promoCodes.list(query),
    postAdminPromoCodes: {
      idempotency,
      handle: ({ body, action }) => promoCodes.create(body, action),
    },
    getAdminPromoCodesById: ({ params }) => promoCodes.view(params.id),
    putAdminPromoCodesById: {
      idempotency,
      handle: ({ params, body, action }) => promoCodes.update(params.id, body, action),
    },
    deleteAdminPromoCodesById: {
      idempotency,
      handle: ({ params, action }) => promoCodes.remove(params.id, action),
    },
  });
}
