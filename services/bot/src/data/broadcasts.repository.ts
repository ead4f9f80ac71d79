import type { BroadcastAudience, BroadcastContent, BroadcastStatus } from '@gpt/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { BotDatabase, BroadcastsTable } from './schema';

/** How many recipients are inserted per statement when a broadcast starts. */
const INSERT_BATCH = 1000;
/** The rate a broadcast shows is over this many seconds. */
const RATE_WINDOW_SEC = 10;

export interface BroadcastFigures {
  sent: number;
  blocked: number;
  failed: number;
  left: number;
  /** Messages a second over the last RATE_WINDOW_SEC seconds. */
  rate: number;
}

export interface BroadcastRow {
  id: number;
  status: BroadcastStatus;
  content: BroadcastContent;
  audience: BroadcastAudience;
  sendAt: Date;
  createdBy: { id: number; name: string };
  total: number | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface Claimed {
  broadcastId: number;
  telegramId: number;
  /** Tries made before this one. */
  attempts: number;
}

function toRow(row: Selectable<BroadcastsTable>): BroadcastRow {
  return {
    id: row.id,
    status: row.status,
    content: row.content as BroadcastContent,
    audience: row.audience as BroadcastAudience,
    sendAt: row.send_at,
    createdBy: { id: row.created_by, name: row.created_by_name },
    total: row.total,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

const NO_FIGURES: BroadcastFigures = {
  sent: 0,
  blocked: 0,
  failed: 0,
  left: 0,
  rate: 0,
};

export function broadcastsRepository(db: Kysely<BotDatabase>) {
  return {
    async create(input: {
      content: BroadcastContent;
      audience: BroadcastAudience;
      sendAt: Date;
      createdBy: { id: number; name: string };
    }): Promise<BroadcastRow> {
      const row = await db
        .insertInto('broadcasts')
        .values({
          status: 'scheduled',
          content: JSON.stringify(input.content),
          audience: JSON.stringify(input.audience),
          send_at: input.sendAt,
          created_by: input.createdBy.id,
          created_by_name: input.createdBy.name,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRow(row);
    },

    async find(id: number): Promise<BroadcastRow | undefined> {
      const row = await db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toRow(row);
    },

    async page(page: number, limit: number, order: 'asc' | 'desc'): Promise<{ rows: BroadcastRow[]; total: number }> {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('broadcasts')
          .selectAll()
          .orderBy('created_at', order)
          .orderBy('id', order)
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        db
          .selectFrom('broadcasts')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(toRow), total: Number(count.n) };
    },

    /** Sent, blocked, failed, left and the rate of each broadcast, counted from its deliveries. */
    async figures(ids: number[]): Promise<Map<number, BroadcastFigures>> {
      const figures = new Map<number, BroadcastFigures>(ids.map((id) => [id, { ...NO_FIGURES }]));
      if (ids.length === 0) return figures;
      const rows = await db
        .selectFrom('broadcast_deliveries')
        .select(['broadcast_id', 'status'])
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .select(
          sql<string>`count(*) filter (where sent_at > now() - make_interval(secs => ${RATE_WINDOW_SEC}))`.as('recent'),
        )
        .where('broadcast_id', 'in', ids)
        .groupBy(['broadcast_id', 'status'])
        .execute();
      for (const row of rows) {
        const entry = figures.get(row.broadcast_id)!;
        const n = Number(row.n);
        if (row.status === 'sent') {
          entry.sent += n;
          entry.rate = Math.round((Number(row.recent) / RATE_WINDOW_SEC) * 10) / 10;
        } else if (row.status === 'blocked') entry.blocked += n;
        else if (row.status === 'failed') entry.failed += n;
        else entry.left += n;
      }
      return figures;
    },

    /** Moves a broadcast from one of `from` to `to`; undefined when it was in none of them (someone moved it first). */
    async move(id: number, from: BroadcastStatus[], to: BroadcastStatus): Promise<BroadcastRow | undefined> {
      const row = await db
        .updateTable('broadcasts')
        .set({
          status: to,
          ...(to === 'done' || to === 'canceled' ? { finished_at: new Date() } : {}),
        })
        .where('id', '=', id)
        .where('status', 'in', from)
        .returningAll()
        .executeTakeFirst();
      return row && toRow(row);
    },

    /** A paused broadcast goes on where it stopped; one paused before it started waits for its time again. */
    async resume(id: number): Promise<BroadcastRow | undefined> {
      const row = await db
        .updateTable('broadcasts')
        .set({
          status: sql<BroadcastStatus>`case when total is null then 'scheduled' else 'sending' end`,
        })
        .where('id', '=', id)
        .where('status', '=', 'paused')
        .returningAll()
        .executeTakeFirst();
      return row && toRow(row);
    },

    /** The scheduled broadcasts whose time has come, oldest first. */
    async due(): Promise<BroadcastRow[]> {
      const rows = await db
        .selectFrom('broadcasts')
        .selectAll()
        .where('status', '=', 'scheduled')
        .where('send_at', '<=', new Date())
        .orderBy('send_at')
        .execute();
      return rows.map(toRow);
    },

    /** The broadcast being sent first (the oldest), if any. */
    async sending(): Promise<BroadcastRow | undefined> {
      const row = await db
        .selectFrom('broadcasts')
        .selectAll()
        .where('status', '=', 'sending')
        .orderBy('started_at')
        .orderBy('id')
        .executeTakeFirst();
      return row && toRow(row);
    },

    async status(id: number): Promise<BroadcastStatus | undefined> {
      const row = await db.selectFrom('broadcasts').select('status').where('id', '=', id).executeTakeFirst();
      return row?.status;
    },

    /**
     * Fixes a scheduled broadcast's recipients (one delivery row each; a row already there stays as it is)
     * and starts it; undefined when it is not scheduled any more (paused or canceled meanwhile, or
     * started by another process).
     */
    async start(id: number, telegramIds: number[]): Promise<BroadcastRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const locked = await trx
          .selectFrom('broadcasts')
          .select('status')
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (locked?.status !== 'scheduled') return undefined;
        for (let i = 0; i < telegramIds.length; i += INSERT_BATCH) {
          await trx
            .insertInto('broadcast_deliveries')
            .values(
              telegramIds.slice(i, i + INSERT_BATCH).map((telegramId) => ({
                broadcast_id: id,
                telegram_id: telegramId,
              })),
            )
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
        const row = await trx
          .updateTable('broadcasts')
          .set({
            status: 'sending',
            total: telegramIds.length,
            started_at: new Date(),
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return toRow(row);
      });
    },

    /**
     * Claims the broadcast's next delivery for `owner` before it is sent: a pending one, or a failed one
     * whose next try is due. A claimed row is never claimed again, by this process or another.
     */
    async claim(broadcastId: number, owner: string): Promise<Claimed | undefined> {
      const row = await db
        .updateTable('broadcast_deliveries')
        .set({ status: 'sending', owner })
        .where('broadcast_id', '=', broadcastId)
        .where('telegram_id', '=', (eb) =>
          eb
            .selectFrom('broadcast_deliveries')
            .select('telegram_id')
            .where('broadcast_id', '=', broadcastId)
            .where((w) =>
              w.or([w('status', '=', 'pending'), w.and([w('status', '=', 'retry'), w('next_at', '<=', new Date())])]),
            )
            .orderBy('status')
            .orderBy('telegram_id')
            .limit(1)
            .forUpdate()
            .skipLocked(),
        )
        .where('status', 'in', ['pending', 'retry'])
        .returning(['broadcast_id', 'telegram_id', 'attempts'])
        .executeTakeFirst();
      return (
        row && {
          broadcastId: row.broadcast_id,
          telegramId: Number(row.telegram_id),
          attempts: row.attempts,
        }
      );
    },

    /** The claimed delivery's outcome. */
    async settle(
      claim: Claimed,
      outcome:
        | { status: 'sent' }
        | { status: 'blocked'; error: string }
        | { status: 'failed'; error: string }
        | { status: 'retry'; error: string; nextAt: Date }
        | { status: 'pending' },
    ): Promise<void> {
      await db
        .updateTable('broadcast_deliveries')
        .set({
          status: outcome.status,
          owner: null,
          attempts: outcome.status === 'pending' ? claim.attempts : claim.attempts + 1,
          sent_at: outcome.status === 'sent' ? new Date() : null,
          next_at: outcome.status === 'retry' ? outcome.nextAt : null,
          error: 'error' in outcome ? outcome.error.slice(0, 500) : null,
        })
        .where('broadcast_id', '=', claim.broadcastId)
        .where('telegram_id', '=', String(claim.telegramId))
        .execute();
    },

    /**
     * Deliveries another process claimed and never settled (it died while sending them): Telegram may
     * have the message, so they are never sent again; they count as failed. Answers how many.
     */
    async abandonOthers(owner: string): Promise<number> {
      const rows = await db
        .updateTable('broadcast_deliveries')
        .set({
          status: 'failed',
          owner: null,
          error: 'interrupted: the sending process stopped mid-call',
        })
        .where('status', '=', 'sending')
        .where('owner', '!=', owner)
        .returning('broadcast_id')
        .execute();
      return rows.length;
    },

    /** When the broadcast's next retry is due; null: nothing is left to send. */
    async nextDue(broadcastId: number): Promise<Date | null | 'now'> {
      const row = await db
        .selectFrom('broadcast_deliveries')
        .select((eb) => [
          eb.fn.countAll<string>().filterWhere('status', 'in', ['pending', 'sending']).as('waiting'),
          eb.fn.min('next_at').filterWhere('status', '=', 'retry').as('retry_at'),
        ])
        .where('broadcast_id', '=', broadcastId)
        .executeTakeFirstOrThrow();
      if (Number(row.waiting) > 0) return 'now';
      return (row.retry_at as Date | null) ?? null;
    },

    /** Users whose chats the bot knows, with when they last wrote (null: not since it started keeping it). */
    async lastActive(telegramIds: number[]): Promise<Map<number, Date | null>> {
      const active = new Map<number, Date | null>();
      for (let i = 0; i < telegramIds.length; i += INSERT_BATCH) {
        const rows = await db
          .selectFrom('chats')
          .select(['telegram_id', 'last_active_at', 'blocked_at'])
          .where(
            'telegram_id',
            'in',
            telegramIds.slice(i, i + INSERT_BATCH).map((id) => String(id)),
          )
          .execute();
        for (const row of rows) if (!row.blocked_at) active.set(Number(row.telegram_id), row.last_active_at);
      }
      return active;
    },
  };
}

export type BroadcastsRepository = ReturnType<typeof broadcastsRepository>;
