import { sql, type Kysely } from 'kysely';
import type { MetricsDatabase } from './schema';

/** A calendar date, 'YYYY-MM-DD'. */
type Day = string;

/** Inclusive range of days. */
export interface DayRange {
  from: Day;
  to: Day;
}

/** What one fact adds to its day. */
export interface DayDelta {
  new_users?: number;
  messages?: number;
  spent_usd?: string;
  deposited_rub?: string;
}

export interface UserPresence {
  registeredDay: Day | null;
  removedDay: Day | null;
}

export interface DayTotals {
  day: Day;
  newUsers: number;
  messages: number;
  spentUsd: string;
  depositedRub: string;
}

export interface PeriodTotals {
  newUsers: number;
  messages: number;
  spentUsd: string;
  depositedRub: string;
}

export interface StoredLastMessage {
  messageId: number;
  username: string | null;
  createdAt: string;
  userMessage: string;
  botResponse: string | null;
  model: string;
  totalCost: string;
}

type Db = Kysely<MetricsDatabase>;

type PeriodName = 'today' | 'week' | 'month';

interface PeriodRow {
  period: PeriodName;
  new_users: string;
  messages: string;
  spent_usd: string;
  deposited_rub: string;
}

/** The projections: per-day sums, each user's presence, the newest message. */
export function projectionsRepository(db: Db) {
  return {
    async addToDay(day: Day, delta: DayDelta): Promise<void> {
      const values = {
        day,
        new_users: delta.new_users ?? 0,
        messages: delta.messages ?? 0,
        spent_usd: delta.spent_usd ?? '0',
        deposited_rub: delta.deposited_rub ?? '0',
      };
      await db
        .insertInto('daily_stats')
        .values(values)
        .onConflict((oc) =>
          oc.column('day').doUpdateSet({
            new_users: sql`daily_stats.new_users + excluded.new_users`,
            messages: sql`daily_stats.messages + excluded.messages`,
            spent_usd: sql`daily_stats.spent_usd + excluded.spent_usd`,
            deposited_rub: sql`daily_stats.deposited_rub + excluded.deposited_rub`,
          }),
        )
        .execute();
    },

    /** The user's row, created empty when missing and locked until the transaction ends. */
    async lockUserPresence(userId: number): Promise<UserPresence> {
      await db
        .insertInto('user_presence')
        .values({ user_id: String(userId) })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      const row = await db
        .selectFrom('user_presence')
        .select([
          sql<Day | null>`registered_day::text`.as('registered_day'),
          sql<Day | null>`removed_day::text`.as('removed_day'),
        ])
        .where('user_id', '=', String(userId))
        .forUpdate()
        .executeTakeFirstOrThrow();
      return { registeredDay: row.registered_day, removedDay: row.removed_day };
    },

    async setUserPresence(userId: number, presence: UserPresence): Promise<void> {
      await db
        .updateTable('user_presence')
        .set({ registered_day: presence.registeredDay, removed_day: presence.removedDay })
        .where('user_id', '=', String(userId))
        .execute();
    },

    /** Keeps the message if it is newer (by created_at, then id) than the one held: never goes backwards. */
    async offerLastMessage(message: StoredLastMessage): Promise<void> {
      const values = {
        message_id: message.messageId,
        username: message.username,
        created_at: message.createdAt,
        user_message: message.userMessage,
        bot_response: message.botResponse,
        model: message.model,
        total_cost: message.totalCost,
      };
      await db
        .insertInto('last_message')
        .values({ slot: 1, ...values })
        .onConflict((oc) =>
          oc
            .column('slot')
            .doUpdateSet({
              message_id: sql`excluded.message_id`,
              username: sql`excluded.username`,
              created_at: sql`excluded.created_at`,
              user_message: sql`excluded.user_message`,
              bot_response: sql`excluded.bot_response`,
              model: sql`excluded.model`,
              total_cost: sql`excluded.total_cost`,
            })
            .where(
              sql<boolean>`(last_message.created_at, last_message.message_id) < (excluded.created_at, excluded.message_id)`,
            ),
        )
        .execute();
    },

    async readLastMessage(): Promise<StoredLastMessage | null> {
      const row = await db.selectFrom('last_message').selectAll().executeTakeFirst();
      if (!row) return null;
      return {
        messageId: Number(row.message_id),
        username: row.username,
        createdAt: row.created_at.toISOString(),
        userMessage: row.user_message,
        botResponse: row.bot_response,
        model: row.model,
        totalCost: row.total_cost,
      };
    },

    /** The sums of each named period (inclusive day ranges), read from the few daily rows they cover. */
    async readPeriods(periods: Record<PeriodName, DayRange>): Promise<Record<PeriodName, PeriodTotals>> {
      const ranges = (Object.entries(periods) as [PeriodName, DayRange][]).map(
        ([name, range]) => sql`(${name}, ${range.from}::date, ${range.to}::date)`,
      );
      const { rows } = await sql<PeriodRow>`
      select p.period,
             coalesce(sum(d.new_users), 0) as new_users,
             coalesce(sum(d.messages), 0) as messages,
             coalesce(sum(d.spent_usd), 0) as spent_usd,
             coalesce(sum(d.deposited_rub), 0) as deposited_rub
        from (values ${sql.join(ranges)}) as p (period, from_day, to_day)
        left join daily_stats d on d.day between p.from_day and p.to_day
       group by p.period`.execute(db);
      const totals = Object.fromEntries(
        rows.map((row) => [
          row.period,
          {
            newUsers: Number(row.new_users),
            messages: Number(row.messages),
            spentUsd: String(row.spent_usd),
            depositedRub: String(row.deposited_rub),
          },
        ]),
      );
      return totals as Record<PeriodName, PeriodTotals>;
    },

    /** Users registered and not removed: the sum over the daily rows (one row per active day). */
    async readUsersCount(): Promise<number> {
      const row = await db
        .selectFrom('daily_stats')
        .select(sql<string>`coalesce(sum(new_users), 0)`.as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** The daily rows between the bounds; days without activity have no row. */
    async readDays(range: DayRange): Promise<DayTotals[]> {
      const rows = await db
        .selectFrom('daily_stats')
        .select([sql<Day>`day::text`.as('day'), 'new_users', 'messages', 'spent_usd', 'deposited_rub'])
        .where(sql<boolean>`day between ${range.from}::date and ${range.to}::date`)
        .orderBy('day')
        .execute();
      return rows.map((row) => ({
        day: row.day,
        newUsers: row.new_users,
        messages: row.messages,
        spentUsd: row.spent_usd,
        depositedRub: row.deposited_rub,
      }));
    },

    /** Empties every projection (the log stays): the first step of a rebuild. */
    async clear(): Promise<void> {
      await db.deleteFrom('daily_stats').execute();
      await db.deleteFrom('user_presence').execute();
      await db.deleteFrom('last_message').execute();
    },
  };
}
