import {
  AdminPaymentsQuery,
  AdminPaymentsResponse,
  BalanceSnapshot,
  BotBalanceQuery,
  BotBalanceResponse,
  BotCreatePaymentRequest,
  BotPaymentEmailRequest,
  CreatePaymentRequest,
  CreatePaymentResponse,
  Payment,
  PaymentIdParams,
  PublicPaymentIdParams,
  UserPayment,
  UserPaymentsQuery,
  UserPaymentsResponse,
} from '@gpt/contracts';
import { attemptLimiter, requireAuth, requireBotKey, respond, validate } from '@gpt/kit';
import { Router, type Response } from 'express';
import type { BillingDeps } from '../deps';
import { paymentsRepository, type PaymentRecord } from '../data/payments.repository';
import { balanceOf, botBalance } from '../domain/balances';
import { knownUser } from '../domain/known-users';
import { createPayment, payerView, supplyReceiptEmail } from '../domain/create-payment';
import type { Providers } from '../provider';
import { billingErrors } from '../domain/errors';

const userIdOf = (res: Response) => Number(res.locals.claims?.sub);
/** A payment as its payer sees it. */
const userPayment = (payment: PaymentRecord): UserPayment => ({
  ...payerView(payment),
  email: payment.email,
  created_at: payment.createdAt.toISOString(),
  updated_at: payment.updatedAt.toISOString(),
});

/** The logged-in user's own payments and balance. */
export function userPaymentsRouter(deps: BillingDeps, providers: Providers): Router {
  const router = Router();
  const auth = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv });

  router.post('/api/billing/payments', auth, async (req, res) => {
    const { amount, tariff_id } = validate(CreatePaymentRequest, req.body);
    const payment = await createPayment(deps, providers, {
      userId: userIdOf(res),
      source: 'web',
      amount,
      tariffId: tariff_id,
      authorization: req.headers.authorization,
    });
    respond(res, CreatePaymentResponse, payment, 201);
  });
  router.get('/api/billing/payments', auth, async (req, res) => {
    const page = validate(UserPaymentsQuery, req.query);
    const { payments, total } = await paymentsRepository(deps.db).userPage(userIdOf(res), page);
    respond(res, UserPaymentsResponse, { payments: payments.map(userPayment), total });
  });
  router.get('/api/billing/payments/:id', auth, async (req, res) => {
    const { id } = validate(PublicPaymentIdParams, req.params);
    const payment = await paymentsRepository(deps.db).findByPaymentId(id);
    if (!payment || payment.userId !== userIdOf(res)) throw billingErrors.paymentNotFound();
    respond(res, UserPayment, userPayment(payment));
  });
  router.get('/api/billing/balance', auth, async (_req, res) => {
    respond(res, BalanceSnapshot, await balanceOf(deps, userIdOf(res)));
  });
  return router;
}

/** The Telegram bot: balance checks before paid requests, payments, the receipt e-mail. */
export function botPaymentsRouter(deps: BillingDeps, providers: Providers): Router {
  const router = Router();
  const bot = requireBotKey(deps.config.BOT_API_KEY);
  const paymentLimit = attemptLimiter(deps.kv, {
    name: 'bot-payment-user',
    points: deps.config.RATE_LIMIT_PAYMENT_POINTS,
    windowSec: deps.config.RATE_LIMIT_PAYMENT_WINDOW_SEC,
  });

  router.get('/api/bot/balance', bot, async (req, res) => {
    const { telegram_id } = validate(BotBalanceQuery, req.query);
    respond(res, BotBalanceResponse, await botBalance(deps, telegram_id));
  });
  router.post('/api/bot/payments', bot, async (req, res) => {
    const { telegram_id, amount, tariff_id, email } = validate(BotCreatePaymentRequest, req.body);
    const user = await knownUser(deps, { telegramId: telegram_id });
    if (!user) throw billingErrors.userNotFound();
    const wait = await paymentLimit.consume(String(user.id));
    if (wait > 0) throw billingErrors.tooManyPayments(wait);
    const payment = await createPayment(deps, providers, {
      userId: user.id,
      source: 'bot',
      amount,
      tariffId: tariff_id,
      email,
    });
    respond(res, CreatePaymentResponse, payment, 201);
  });
  router.patch('/api/bot/payments/:id/email', bot, async (req, res) => {
    const { id } = validate(PublicPaymentIdParams, req.params);
    const { email } = validate(BotPaymentEmailRequest, req.body);
    respond(res, CreatePaymentResponse, await supplyReceiptEmail(deps, providers, id, email));
  });
  return router;
}

/** The admin's payments screen (docs/product.md, Calls). */
export function adminPaymentsRouter(deps: BillingDeps): Router {
  const router = Router();
  router.use('/api/admin/payments', requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' }));
  router.get('/api/admin/payments', async (req, res) => {
    const query = validate(AdminPaymentsQuery, req.query);
    respond(res, AdminPaymentsResponse, await paymentsRepository(deps.db).adminPage(query));
  });
  router.get('/api/admin/payments/:id', async (req, res) => {
    const { id } = validate(PaymentIdParams, req.params);
    const payment = await paymentsRepository(deps.db).adminDetail(id);
    if (!payment) throw billingErrors.paymentNotFound();
    respond(res, Payment, payment);
  });
  return router;
}
