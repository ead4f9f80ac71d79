import { attemptLimiter, idempotencyStore, routeHandlers } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { paymentsRepository } from '../data/payments.repository';
import { reconciliationRepository } from '../data/reconciliation.repository';
import { usersRepository } from '../data/users.repository';
import { balanceOf, botBalance } from '../domain/balances';
import { knownUser } from '../domain/known-users';
import { createPayment, supplyReceiptEmail, userPayment } from '../domain/create-payment';
import { reconcileWithProviders } from '../domain/provider-reconciliation';
import { refundPayment } from '../domain/refund-payment';
import { checkStarPreCheckout, createStarInvoice, recordStarPayment } from '../domain/stars';
import type { Providers } from '../provider';
import { billingErrors } from '../domain/errors';

/**
 * The logged-in user's own payments and balance; the Telegram bot's balance checks before paid requests,
 * payments and the receipt e-mail; the admin's payments screen (docs/product.md, Calls) and refunds.
 */
export function paymentsRoutes(deps: BillingDeps, providers: Providers) {
  const payments = paymentsRepository(deps.db);
  const paymentLimit = attemptLimiter(deps.kv, {
    name: 'bot-payment-user',
    points: deps.config.RATE_LIMIT_PAYMENT_POINTS,
    windowSec: deps.config.RATE_LIMIT_PAYMENT_WINDOW_SEC,
  });
  /** The bot's payer, within their allowance of payments, card and Stars invoices counted together. */
  const botPayer = async (telegramId: number) => {
    const user = await knownUser(deps, { telegramId });
    if (!user) throw billingErrors.userNotFound();
    const wait = await paymentLimit.consume(String(user.id));
    if (wait > 0) throw billingErrors.tooManyPayments(wait);
    return user;
  };
  return routeHandlers('billing', {
    postBillingPayments: ({ body, claims, req }) =>
      createPayment(deps, providers, {
        userId: Number(claims.sub),
        source: 'web',
        amount: body.amount,
        tariffId: body.tariff_id,
        authorization: req.headers.authorization,
        autoRenew: body.auto_renew,
        consentVersion: body.consent_version,
      }),
    getBillingPayments: async ({ query, claims }) => {
      const { payments: page, total } = await payments.userPage(Number(claims.sub), query);
      return { payments: page.map(userPayment), total };
    },
    getBillingPaymentsById: async ({ params, claims }) => {
      const payment = await payments.findByPaymentId(params.id);
      if (!payment || payment.userId !== Number(claims.sub)) throw billingErrors.paymentNotFound();
      return userPayment(payment);
    },
    getBillingBalance: ({ claims }) => balanceOf(deps, Number(claims.sub)),

    getBotBalance: ({ query }) => botBalance(deps, query.telegram_id),
    getBotPayments: async ({ query: { telegram_id, limit } }) => {
      const user = await usersRepository(deps.db).findByTelegramId(telegram_id);
      if (!user) throw billingErrors.userNotFound();
      const { payments: page, total } = await payments.userPage(user.id, { page: 1, limit });
      return { payments: page.map(userPayment), total };
    },
    postBotPayments: async ({ body: { telegram_id, amount, tariff_id, email, auto_renew, consent_version } }) => {
      const user = await botPayer(telegram_id);
      return createPayment(deps, providers, {
        userId: user.id,
        source: 'bot',
        amount,
        tariffId: tariff_id,
        email,
        autoRenew: auto_renew,
        consentVersion: consent_version,
      });
    },
    patchBotPaymentsByIdEmail: ({ params, body }) => supplyReceiptEmail(deps, providers, params.id, body.email),
    postBotStarsInvoices: async ({ body }) => {
      await botPayer(body.telegram_id);
      return createStarInvoice(deps, body);
    },
    postBotStarsPreCheckout: ({ body }) => checkStarPreCheckout(deps, body),
    postBotStarsPayments: ({ body }) => recordStarPayment(deps, body),

    getAdminPayments: ({ query }) => payments.adminPage(query),
    getAdminPaymentsById: async ({ params }) => {
      const payment = await payments.adminDetail(params.id);
      if (!payment) throw billingErrors.paymentNotFound();
      return payment;
    },
    getAdminReconciliation: async () => ({ report: await reconciliationRepository(deps.db).latest() }),
    postAdminReconciliation: async () => ({ report: await reconcileWithProviders(deps, providers) }),
    postAdminPaymentsByIdRefund: {
      idempotency: idempotencyStore({ ...deps, service: 'billing' }),
      handle: ({ params, body, claims, req, action }) => {
        const refunder = {
          adminId: Number(claims.sub),
          token: (req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''),
          reason: body.reason ?? null,
        };
        return refundPayment(deps, providers, refunder, params.id, action);
      },
    },
  });
}
