import type { FeedbackRequest } from '@gpt/contracts';
import type { ContentDeps } from '../deps';
import { feedbackRepository } from '../data/feedback.repository';

/** The contact form: the message is stored and announced as `feedback.received` in one transaction. */
export async function submitFeedback(deps: ContentDeps, input: FeedbackRequest): Promise<void> {
  await deps.bus.transaction(async (trx) => {
    const feedback = await feedbackRepository(trx).insert(input);
    await deps.bus.publish(trx, 'feedback.received', {
      feedback_id: feedback.id,
      telegram: feedback.telegram,
      subject: feedback.subject,
      message: feedback.message,
      created_at: feedback.created_at,
    });
  });
}
