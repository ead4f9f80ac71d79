import { routeHandlers } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { submitFeedback } from '../domain/submit-feedback';

/** The contact form (no login; the gateway rate-limits it). */
export function feedbackRoutes(deps: ContentDeps) {
  return routeHandlers('content', {
    postFeedback: async ({ body }) => {
      await submitFeedback(deps, body);
      return { success: true, message: 'Спасибо! Ваше сообщение отправлено.' };
    },
  });
}
