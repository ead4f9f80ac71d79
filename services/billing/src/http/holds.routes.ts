import { BotHoldRequest, BotHoldResponse, HoldIdParams } from '@gpt/contracts';
import { requireBotKey, respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { BillingDeps } from '../deps';
import { placeHold, releaseHold } from '../domain/holds';

/** The bot reserves credits before a model call and gives back what it did not use. */
export function botHoldsRouter(deps: BillingDeps): Router {
  const router = Router();
  const bot = requireBotKey(deps.config.BOT_API_KEY);

  router.post('/api/bot/holds', bot, async (req, res) => {
    const request = validate(BotHoldRequest, req.body);
    respond(res, BotHoldResponse, await placeHold(deps, request), 201);
  });
  router.delete('/api/bot/holds/:id', bot, async (req, res) => {
    const { id } = validate(HoldIdParams, req.params);
    await releaseHold(deps, id);
    res.status(204).end();
  });
  return router;
}
