import {
  InternalStarRefundRequest,
  internalStarRefundsPath,
  InternalStarSubscriptionCancel,
  internalStarSubscriptionCancelPath,
  InternalStarTransactions,
  internalStarTransactionsPath,
  type StarTransaction,
} from '@gpt/contracts';
import {
  AppError,
  badRequest,
  conflict,
  requireAuth,
  requireBotKey,
  respond,
  serviceUnavailable,
  validate,
} from '@gpt/kit';
import { Router } from 'express';
import { GrammyError } from 'grammy';
import type { StarTransaction as TelegramStarTransaction } from 'grammy/types';
import type { BotDeps } from '../deps';

/**
 * Calls from other services, never routed by the gateway: billing refunds a Stars payment here,
 * because only the bot holds the Telegram connection (the bot token, or the embedded sandbox).
 * Billing forwards the acting admin's token, so the bot checks the role itself. A charge Telegram
 * says is already refunded counts as refunded: billing may ask again after a timeout. Billing's
 * reconciliation reads Telegram's Stars transactions here too, with the bot's key, and cancels a Stars subscription
 * at Telegram (`editUserStarSubscription`) before it records a cancellation made on the site or by an admin.
 */
export function internalRouter(deps: BotDeps): Router {
  const admin = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' });
  const telegramApi = () => {
    const api = deps.telegram.api();
    if (!api) throw serviceUnavailable('Telegram сейчас недоступен боту, повторите позже', 'telegram_unavailable');
    return api;
  };
  const router = Router();
  router.get(internalStarTransactionsPath, requireBotKey(deps.config.BOT_API_KEY), async (req, res) => {
    const since = Date.parse(String(req.query.since ?? ''));
    if (Number.isNaN(since)) throw badRequest('since: дата ISO-8601', 'invalid_since');
    const api = telegramApi();
    // Telegram answers in chronological order, 100 at a time from `offset`: every page, then the recent ones.
    const transactions: StarTransaction[] = [];
    for (let offset = 0; ; offset += STAR_PAGE) {
      const page = await api.getStarTransactions({ offset, limit: STAR_PAGE });
      for (const transaction of page.transactions) {
        const ours = starTransaction(transaction);
        if (ours && transaction.date * 1000 >= since) transactions.push(ours);
      }
      if (page.transactions.length < STAR_PAGE) break;
    }
    respond(res, InternalStarTransactions, { transactions });
  });
  router.post(internalStarSubscriptionCancelPath, requireBotKey(deps.config.BOT_API_KEY), async (req, res) => {
    const request = validate(InternalStarSubscriptionCancel, req.body);
    try {
      await telegramApi().editUserStarSubscription(request.telegram_id, request.telegram_payment_charge_id, true);
    } catch (err) {
      if (!(err instanceof GrammyError)) throw err;
      if (err.error_code >= 500 || err.error_code === 429) {
        throw new AppError(`Telegram не ответил: ${err.description}`, 'telegram_unavailable', 503);
      }
      throw conflict(`Telegram не отменил подписку: ${err.description}`, 'telegram_refused');
    }
    res.status(204).end();
  });
  return router.post(internalStarRefundsPath, admin, async (req, res) => {
    const request = validate(InternalStarRefundRequest, req.body);
    const api = telegramApi();
    try {
      await api.refundStarPayment(request.telegram_id, request.telegram_payment_charge_id);
    } catch (err) {
      if (!(err instanceof GrammyError)) throw err;
      if (!err.description.includes('CHARGE_ALREADY_REFUNDED')) {
        if (err.error_code >= 500 || err.error_code === 429) {
          throw new AppError(`Telegram не ответил: ${err.description}`, 'telegram_unavailable', 503);
        }
        throw conflict(`Telegram отказал в возврате звёзд: ${err.description}`, 'telegram_refused');
      }
    }
    res.status(204).end();
  });
}

const STAR_PAGE = 100;

/** A user's payment (an incoming transaction from a user) or its refund (outgoing to a user); others are not ours. */
function starTransaction(transaction: TelegramStarTransaction): StarTransaction | null {
  const date = new Date(transaction.date * 1000).toISOString();
  const partner = transaction.source ?? transaction.receiver;
  if (partner?.type !== 'user') return null;
  return {
    id: transaction.id,
    kind: transaction.source ? 'payment' : 'refund',
    stars: transaction.amount,
    date,
    telegram_user_id: partner.user.id,
  };
}
