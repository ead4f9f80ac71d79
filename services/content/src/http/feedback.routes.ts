import { FeedbackRequest, SuccessResponse } from '@gpt/contracts';
import { respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { ContentDeps } from '../deps';
import { submitFeedback } from '../domain/submit-feedback';

/** The contact form (no login; the gateway rate-limits it). */
export function feedbackRouter(deps: ContentDeps): Router {
  return Router().post('/api/feedback', async (req, res) => {
    await submitFeedback(deps, validate(FeedbackRequest, req.body));
    respond(res, SuccessResponse, { success: true, message: 'Спасибо! Ваше сообщение отправлено.' }, 201);
  });
}
