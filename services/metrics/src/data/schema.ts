import type { BusTables } from '@gpt/kit';
import type { ColumnType, Generated } from 'kysely';

/** `date` columns are written as 'YYYY-MM-DD' and read back as text (`day::text`), never as a JS Date. */
type Day = ColumnType<never, string, string>;
type NullableDay = ColumnType<never, string | null, string | null>;

/** Every event metrics consumed, as received: the source a rebuild recomputes the projections from. */
export interface EventLogTable {
  /** bigserial: arrival order, as a string. */
  seq: Generated<string>;
  event_id: string;
  type: string;
  /** The envelope's JSON text. */
  envelope: string;
  received_at: Generated<Date>;
}

/** One Moscow calendar day. */
export interface DailyStatsTable {
  day: Day;
  /** Users who registered on this day and still exist (a deletion or merge takes its user off). */
  new_users: Generated<number>;
  messages: Generated<number>;
  /** numeric(24,12), dollars, as a string. */
  spent_usd: ColumnType<string, string | undefined, string>;
  /** numeric(16,2), roubles, as a string. */
  deposited_rub: ColumnType<string, string | undefined, string>;
}

/** When each user registered and left, so a repeated or out-of-order fact counts once. */
export interface UserPresenceTable {
  /** bigint, as a string. */
  user_id: ColumnType<string, string, never>;
  registered_day: NullableDay;
  removed_day: NullableDay;
}

/** The newest recorded message (a single row, slot 1). */
export interface LastMessageTable {
  slot: ColumnType<number, number | undefined, never>;
  message_id: ColumnType<string, number, number>;
  username: string | null;
  created_at: ColumnType<Date, string, string>;
  user_message: string;
  bot_response: string | null;
  model: string;
  /** numeric(24,12), dollars, as a string. */
  total_cost: string;
}

/** The tables of the metrics database, as Kysely sees them. */
export interface MetricsDatabase extends BusTables {
  event_log: EventLogTable;
  daily_stats: DailyStatsTable;
  user_presence: UserPresenceTable;
  last_message: LastMessageTable;
}
