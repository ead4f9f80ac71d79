import { accessTokenVerifier, authenticateRequest, routeHandlers } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { manageSupportRequests, submitFeedback } from '../domain/submit-feedback';

/**
 * The contact form (no login; the gateway rate-limits it; a signed-in sender's token makes the request
 * theirs), the user's own requests, and the admin's «Обращения».
 */
export function feedbackRoutes(deps: ContentDeps) {
  const support = manageSupportRequests(deps);
  const verify = accessTokenVerifier(deps.config.JWT_SECRET);
  /** The sender when the form came with a valid token; a stale one is as good as none for a public form. */
  const senderOf = (authorization: string | undefined) =>
    authorization
      ? authenticateRequest(authorization, { verify, kv: deps.kv }).then(
          (claims) => Number(claims.sub),
          () => null,
        )
      : null;
  return routeHandlers('content', {
    postFeedback: async ({ body, req }) => {
      await submitFeedback(deps, body, await senderOf(req.headers.authorization));
      return { success: true, message: 'Спасибо! Ваше сообщение отправлено.' };
    },
    getFeedbackMine: ({ claims }) => support.mine(Number(claims.sub)),
    getAdminSupportRequests: ({ query }) => support.list(query),
    getAdminSupportRequestsUnread: () => support.unread(),
    postAdminSupportRequestsByIdDone: ({ params }) => support.markDone(params.id),
    postAdminSupportRequestsByIdAnswer: ({ params, body, claims }) =>
      support.answer(params.id, body.answer, Number(claims.sub)),
  });
}
