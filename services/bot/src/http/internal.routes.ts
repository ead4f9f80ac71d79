import { InternalStarRefundRequest, internalStarRefundsPath } from '@gpt/contracts';
import { AppError, conflict, requireAuth, serviceUnavailable, validate } from '@gpt/kit';
import { Router } from 'express';
import { GrammyError } from 'grammy';
import type { BotDeps } from '../deps';

/**
 * Calls from other services, never routed by the gateway: billing refunds a Stars payment here,
 * because only the bot holds the Telegram connection (the bot token, or the embedded sandbox).
 * Billing forwards the acting admin's token, so the bot checks the role itself. A charge Telegram
 * says is already refunded counts as refunded: billing may ask again after a timeout.
 */
export function internalRouter(deps: BotDeps): Router {
  const admin = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' });
  return Router().post(internalStarRefundsPath, admin, async (req, res) => {
    const request = validate(InternalStarRefundRequest, req.body);
    const api = deps.telegram.api();
    if (!api) throw serviceUnavailable('Telegram сейчас недоступен боту, повторите позже', 'telegram_unavailable');
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
