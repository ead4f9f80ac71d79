import type {
  AdminSupportRequestsQuery,
  Feedback,
  FeedbackRequest,
  MySupportRequest,
  SupportChannel,
} from '@gpt/contracts';
import { sql, type Kysely } from 'kysely';
import type { ContentDatabase } from './schema';

/** A support request as the domain reads it, with what content knows of the user who sent it. */
export interface SupportRequestRecord {
  id: number;
  telegram: string;
  email: string | null;
  subject: string;
  message: string;
  userId: number | null;
  userEmail: string | null;
  userName: string | null;
  userTelegramId: string | null;
  status: 'new' | 'done';
  answer: string | null;
  answeredVia: SupportChannel | null;
  answeredAt: Date | null;
  createdAt: Date;
}

export function feedbackRepository(db: Kysely<ContentDatabase>) {
  const withSender = () =>
    db
      .selectFrom('feedback')
      .leftJoin('authors', 'authors.user_id', 'feedback.user_id')
      .selectAll('feedback')
      .select([
        'authors.email as user_email',
        'authors.telegram_id as user_telegram_id',
        sql<string | null>`nullif(trim(concat_ws(' ', authors.first_name, authors.last_name)), '')`.as('full_name'),
        'authors.username as user_username',
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof withSender>['executeTakeFirstOrThrow']>>;
  const toRecord = (row: Row): SupportRequestRecord => ({
    id: row.id,
    telegram: row.telegram,
    email: row.email,
    subject: row.subject,
    message: row.message,
    userId: row.user_id,
    userEmail: row.user_email,
    userName: row.full_name ?? row.user_username,
    userTelegramId: row.user_telegram_id,
    status: row.status,
    answer: row.answer,
    answeredVia: row.answered_via,
    answeredAt: row.answered_at,
    createdAt: row.created_at,
  });

  return {
    async insert(values: FeedbackRequest, userId: number | null): Promise<Feedback> {
      const row = await db
        .insertInto('feedback')
        .values({ ...values, email: values.email ?? null, user_id: userId })
        .returning(['id', 'telegram', 'subject', 'message', 'created_at'])
        .executeTakeFirstOrThrow();
      return { ...row, created_at: row.created_at.toISOString() };
    },

    /** New ones first, then the newest. */
    async page(query: AdminSupportRequestsQuery): Promise<{ rows: SupportRequestRecord[]; total: number }> {
      let rows = withSender();
      let count = db.selectFrom('feedback').select((eb) => eb.fn.countAll<string>().as('n'));
      if (query.status) {
        rows = rows.where('feedback.status', '=', query.status);
        count = count.where('status', '=', query.status);
      }
      const [found, total] = await Promise.all([
        rows
          .orderBy(sql`feedback.status = 'new'`, 'desc')
          .orderBy('feedback.created_at', 'desc')
          .orderBy('feedback.id', 'desc')
          .limit(query.limit)
          .offset((query.page - 1) * query.limit)
          .execute(),
        count.executeTakeFirstOrThrow(),
      ]);
      return { rows: found.map(toRecord), total: Number(total.n) };
    },

    async unread(): Promise<number> {
      const row = await db
        .selectFrom('feedback')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', '=', 'new')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async find(id: number): Promise<SupportRequestRecord | null> {
      const row = await withSender().where('feedback.id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /** Locks the request until the transaction ends (two admins answering at once queue). */
    async lock(id: number): Promise<boolean> {
      const row = await db.selectFrom('feedback').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
      return row !== undefined;
    },

    async markDone(id: number): Promise<void> {
      await db.updateTable('feedback').set({ status: 'done' }).where('id', '=', id).execute();
    },

    async saveAnswer(id: number, answer: { text: string; via: SupportChannel; adminId: number }): Promise<void> {
      await db
        .updateTable('feedback')
        .set({
          status: 'done',
          answer: answer.text,
          answered_via: answer.via,
          answered_by: answer.adminId,
          answered_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .execute();
    },

    /** A user's own requests, newest first. */
    async mine(userId: number): Promise<MySupportRequest[]> {
      const rows = await db
        .selectFrom('feedback')
        .select(['id', 'subject', 'message', 'status', 'answer', 'answered_at', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(50)
        .execute();
      return rows.map((row) => ({
        ...row,
        answered_at: row.answered_at?.toISOString() ?? null,
        created_at: row.created_at.toISOString(),
      }));
    },
  };
}
