import { routeHandlers } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { placeHold, releaseHold } from '../domain/holds';

/** The bot reserves credits before a model call and gives back what it did not use. */
export function holdsRoutes(deps: BillingDeps) {
  return routeHandlers('billing', {
    postBotHolds: ({ body }) => placeHold(deps, body),
    deleteBotHoldsById: ({ params }) => releaseHold(deps, params.id),
  });
}
