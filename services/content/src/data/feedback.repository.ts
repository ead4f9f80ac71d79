import type { Feedback, FeedbackRequest } from '@gpt/contracts';
import type { Kysely } from 'kysely';
import type { ContentDatabase } from './schema';

export function feedbackRepository(db: Kysely<ContentDatabase>) {
  return {
    async insert(values: FeedbackRequest): Promise<Feedback> {
      const row = await db.insertInto('feedback').values(values).returningAll().executeTakeFirstOrThrow();
      return { ...row, created_at: row.created_at.toISOString() };
    },
  };
}
