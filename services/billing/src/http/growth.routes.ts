import {
  AdminPromoCodesQuery,
  AdminPromoCodesResponse,
  AdminReferralStats,
  BotRedeemPromoRequest,
  BotReferralsQuery,
  PromoCodeDetailResponse,
  PromoCodeIdParams,
  PromoCodeInput,
  PromoCodeResponse,
  RedeemPromoRequest,
  RedeemPromoResponse,
  ReferralSummary,
  SuccessResponse,
} from '@gpt/contracts';
import { requireAuth, requireBotKey, respond, validate } from '@gpt/kit';
import { Router, type Response } from 'express';
import type { BillingDeps } from '../deps';
import { botRedeemPromoCode, managePromoCodes, redeemPromoCode } from '../domain/promo-codes';
import { botReferralSummary, referralStats, referralSummary } from '../domain/referrals';

const userIdOf = (res: Response) => Number(res.locals.claims?.sub);

/** The personal account's «Пригласить друга» and «Промокод». */
export function userGrowthRouter(deps: BillingDeps): Router {
  const router = Router();
  const auth = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv });
  router.get('/api/billing/referrals', auth, async (_req, res) => {
    respond(res, ReferralSummary, await referralSummary(deps, userIdOf(res)));
  });
  router.post('/api/billing/promo-codes/redeem', auth, async (req, res) => {
    const { code } = validate(RedeemPromoRequest, req.body);
    respond(res, RedeemPromoResponse, await redeemPromoCode(deps, userIdOf(res), code));
  });
  return router;
}

/** The bot's `/ref` and `/promo КОД`. */
export function botGrowthRouter(deps: BillingDeps): Router {
  const router = Router();
  const bot = requireBotKey(deps.config.BOT_API_KEY);
  router.get('/api/bot/referrals', bot, async (req, res) => {
    const { telegram_id } = validate(BotReferralsQuery, req.query);
    respond(res, ReferralSummary, await botReferralSummary(deps, telegram_id));
  });
  router.post('/api/bot/promo-codes/redeem', bot, async (req, res) => {
    const { telegram_id, code } = validate(BotRedeemPromoRequest, req.body);
    respond(res, RedeemPromoResponse, await botRedeemPromoCode(deps, telegram_id, code));
  });
  return router;
}

/** The admin's promo codes screen and the dashboard's referral tile. */
export function adminGrowthRouter(deps: BillingDeps): Router {
  const router = Router();
  const promoCodes = managePromoCodes(deps);
  router.use(
    ['/api/admin/promo-codes', '/api/admin/referrals'],
    requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' }),
  );
  router.get('/api/admin/referrals/stats', async (_req, res) => {
    respond(res, AdminReferralStats, await referralStats(deps));
  });
  router.get('/api/admin/promo-codes', async (req, res) => {
    respond(res, AdminPromoCodesResponse, await promoCodes.list(validate(AdminPromoCodesQuery, req.query)));
  });
  router.post('/api/admin/promo-codes', async (req, res) => {
    const input = validate(PromoCodeInput, req.body);
    respond(res, PromoCodeResponse, { success: true, promo_code: await promoCodes.create(input) }, 201);
  });
  router.get('/api/admin/promo-codes/:id', async (req, res) => {
    const { id } = validate(PromoCodeIdParams, req.params);
    respond(res, PromoCodeDetailResponse, await promoCodes.view(id));
  });
  router.put('/api/admin/promo-codes/:id', async (req, res) => {
    const { id } = validate(PromoCodeIdParams, req.params);
    const input = validate(PromoCodeInput, req.body);
    respond(res, PromoCodeResponse, { success: true, promo_code: await promoCodes.update(id, input) });
  });
  router.delete('/api/admin/promo-codes/:id', async (req, res) => {
    const { id } = validate(PromoCodeIdParams, req.params);
    await promoCodes.remove(id);
    respond(res, SuccessResponse, { success: true, message: 'Промокод удалён' });
  });
  return router;
}
