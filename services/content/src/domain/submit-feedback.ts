import type { FeedbackRequest } from '@gpt/contracts';
import type { ContentDeps } from '../deps';
import { feedbackRepository } from '../data/feedback.repository';

/** The contact form: the message is stored (no service reads it, so no event announces it). */
export async function submitFeedback(deps: ContentDeps, input: FeedbackRequest): Promise<void> {
  await feedbackRepository(deps.db).insert(input);
}
