import { apiPath } from '@gpt/contracts/openapi';
import type { AdminHistorySortField, HistoryMessage, SortDirection } from '@gpt/contracts';
import { containsPattern } from '@gpt/kit';
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { ChatHistoryDatabase, MessagesTable } from './schema';

type Db = Kysely<ChatHistoryDatabase>;
type Scope = ExpressionBuilder<ChatHistoryDatabase & { m: MessagesTable }, 'm'>;

export interface HistoryFilter {
  userId?: number | undefined;
  /** Substring of the username, any case. */
  username?: string | undefined;
  /** Substring of user_message or bot_response, any case. */
  message?: string | undefined;
}

export interface HistorySort {
  field: AdminHistorySortField;
  order: SortDirection;
}

/** Where an export batch resumes: the sort key (as text) and id of the last row written. */
export interface HistoryCursor {
  key: string;
  id: string;
}

export type NewMessage = Omit<Insertable<MessagesTable>, 'id' | 'created_at'>;

/** The public path of an attached image; the gateway routes /api/media/* here. */
export const mediaPath = (mediaId: string) => apiPath('getMediaById', { id: mediaId });

/** Each sortable column as SQL, with its type so a cursor's text can be compared to it. */
const sortColumns: Record<AdminHistorySortField, { expr: RawBuilder<unknown>; type: RawBuilder<unknown> }> = {
  id: { expr: sql`m.id`, type: sql`bigint` },
  user_id: { expr: sql`m.user_id`, type: sql`integer` },
  username: { expr: sql`coalesce(u.username, u.telegram_username, '')`, type: sql`text` },
  model: { expr: sql`m.model`, type: sql`text` },
  status: { expr: sql`m.status`, type: sql`text` },
  input_tokens: { expr: sql`m.input_tokens`, type: sql`integer` },
  output_tokens: { expr: sql`m.output_tokens`, type: sql`integer` },
  total_cost: { expr: sql`m.total_cost`, type: sql`numeric` },
  cost: { expr: sql`m.cost`, type: sql`bigint` },
  created_at: { expr: sql`m.created_at`, type: sql`timestamptz` },
};

/** The users whose site or Telegram username contains `username`, any case (a parenthesised subquery). */
function usersNamed(username: string) {
  const pattern = containsPattern(username);
  return sql<number>`(select user_id from directory_users where username ilike ${pattern} or telegram_username ilike ${pattern})`;
}

function filterConditions(eb: Scope, filter: HistoryFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.userId !== undefined) conditions.push(eb('m.user_id', '=', filter.userId));
  if (filter.username !== undefined) conditions.push(eb('m.user_id', 'in', usersNamed(filter.username)));
  if (filter.message !== undefined) {
    const pattern = containsPattern(filter.message);
    conditions.push(eb.or([eb('m.user_message', 'ilike', pattern), eb('m.bot_response', 'ilike', pattern)]));
  }
  return eb.and(conditions);
}

function selectFull(db: Db) {
  return db
    .selectFrom('messages as m')
    .leftJoin('directory_users as u', 'u.user_id', 'm.user_id')
    .select([
      'm.id',
      'm.user_id',
      'm.telegram_id',
      'm.model',
      'm.status',
      'm.created_at',
      'm.user_message',
      'm.bot_response',
      'm.error_message',
      'm.image_id',
      'm.input_tokens',
      'm.output_tokens',
      'm.input_cost',
      'm.output_cost',
      'm.total_cost',
      'm.cost',
      'm.image_count',
      'm.hold_id',
      'm.mode',
      'm.door',
      'm.audio_seconds',
      'm.transcription_cost',
      'm.speech_characters',
      'm.speech_cost',
      'u.first_name',
      'u.email',
      'u.last_name',
      'u.deleted_at',
    ])
    .select(sql<string | null>`coalesce(u.username, u.telegram_username)`.as('username'));
}

type FullRow = Awaited<ReturnType<ReturnType<typeof selectFull>['executeTakeFirstOrThrow']>>;

function toHistoryMessage(row: FullRow): HistoryMessage {
  return {
    id: Number(row.id),
    user_id: row.user_id,
    telegram_id: row.telegram_id === null ? null : Number(row.telegram_id),
    username: row.username,
    first_name: row.first_name ?? null,
    email: row.email ?? null,
    last_name: row.last_name ?? null,
    user_deleted: row.deleted_at !== null && row.deleted_at !== undefined,
    model: row.model,
    status: row.status,
    created_at: row.created_at.toISOString(),
    user_message: row.user_message,
    message: row.user_message,
    bot_response: row.bot_response,
    image_path: row.image_id === null ? null : mediaPath(row.image_id),
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    input_cost: row.input_cost,
    output_cost: row.output_cost,
    total_cost: row.total_cost,
    cost: Number(row.cost),
    error_message: row.error_message,
    image_count: row.image_count,
    hold_id: row.hold_id,
    mode: row.mode,
    door: row.door,
    audio_seconds: row.audio_seconds,
    transcription_cost: row.transcription_cost,
    speech_characters: row.speech_characters,
    speech_cost: row.speech_cost,
  };
}

/** Full messages for `ids`, in that order. */
async function loadInOrder(db: Db, ids: string[]): Promise<HistoryMessage[]> {
  if (ids.length === 0) return [];
  const rows = await selectFull(db).where('m.id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toHistoryMessage(row)] : [];
  });
}

/**
 * The rows of the list in its order, ids only: found on the narrow index first and joined to their
 * full rows later, so an offset skips index entries, not joined rows. The users directory is
 * joined only to sort by username.
 */
function orderedIds(db: Db, filter: HistoryFilter, sort: HistorySort) {
  const column = sortColumns[sort.field];
  const direction = sort.order === 'asc' ? sql`asc` : sql`desc`;
  return db
    .selectFrom('messages as m')
    .$if(sort.field === 'username', (query) => query.leftJoin('directory_users as u', 'u.user_id', 'm.user_id'))
    .where((eb) => filterConditions(eb as unknown as Scope, filter))
    .orderBy(sql`${column.expr} ${direction}`)
    .orderBy(sql`m.id ${direction}`);
}

const hasFilter = (filter: HistoryFilter) =>
  filter.userId !== undefined || filter.username !== undefined || filter.message !== undefined;

/** Below this offset a plain OFFSET is cheap; from it on, the hourly counts say where the page starts. */
const SEEK_FROM_OFFSET = 1000;

/** How many messages match, from the counters where the filter allows it. */
async function countMatching(db: Db, filter: HistoryFilter): Promise<number> {
  if (filter.message !== undefined) {
    const row = await db
      .selectFrom('messages as m')
      .where((eb) => filterConditions(eb as unknown as Scope, filter))
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  if (filter.username !== undefined || filter.userId !== undefined) {
    let query = db.selectFrom('message_counts as c').select(sql<string | null>`sum(c.n)`.as('n'));
    if (filter.userId !== undefined) query = query.where('c.user_id', '=', filter.userId);
    if (filter.username !== undefined) query = query.where('c.user_id', 'in', usersNamed(filter.username));
    return Number((await query.executeTakeFirstOrThrow()).n ?? 0);
  }
  const row = await db
    .selectFrom('message_hours')
    .select(sql<string | null>`sum(n)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}

/**
 * A deep page of the whole history by created_at: the hourly counts name the hour its first row
 * is in and how many rows come before that hour, so the scan starts there instead of at the top.
 */
async function seekPage(db: Db, order: SortDirection, page: { offset: number; limit: number }): Promise<string[]> {
  const direction = order === 'asc' ? sql`asc` : sql`desc`;
  const start = await sql<{ hour: Date; hour_end: Date; before: string }>`
    select hour, hour + interval '1 hour' as hour_end, before from (
      select hour, n, sum(n) over (order by hour ${direction}) - n as before from message_hours
    ) h
    where before + n > ${page.offset}
    order by hour ${direction}
    limit 1`.execute(db);
  const hour = start.rows[0];
  if (!hour) return [];
  const rows = await db
    .selectFrom('messages as m')
    .select('m.id')
    .where(
      order === 'asc'
        ? sql<SqlBool>`m.created_at >= ${hour.hour}::timestamptz`
        : sql<SqlBool>`m.created_at < ${hour.hour_end}::timestamptz`,
    )
    .orderBy('m.created_at', order)
    .orderBy('m.id', order)
    .offset(page.offset - Number(hour.before))
    .limit(page.limit)
    .execute();
  return rows.map((row) => row.id);
}

async function pageIds(
  db: Db,
  filter: HistoryFilter,
  sort: HistorySort,
  page: { offset: number; limit: number },
): Promise<string[]> {
  if (!hasFilter(filter) && sort.field === 'created_at' && page.offset >= SEEK_FROM_OFFSET) {
    return seekPage(db, sort.order, page);
  }
  const rows = await orderedIds(db, filter, sort).select('m.id').offset(page.offset).limit(page.limit).execute();
  return rows.map((row) => row.id);
}

export function messagesRepository(db: Db) {
  return {
    async insert(message: NewMessage): Promise<string> {
      const row = await db.insertInto('messages').values(message).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    async findById(id: number): Promise<HistoryMessage | undefined> {
      const row = await selectFull(db).where('m.id', '=', String(id)).executeTakeFirst();
      return row && toHistoryMessage(row);
    },

    async findByIdempotencyKey(key: string): Promise<HistoryMessage | undefined> {
      const row = await selectFull(db).where('m.idempotency_key', '=', key).executeTakeFirst();
      return row && toHistoryMessage(row);
    },

    /** One page and the total, read in one snapshot so they agree with each other. */
    async list(
      filter: HistoryFilter,
      sort: HistorySort,
      page: { offset: number; limit: number },
    ): Promise<{ history: HistoryMessage[]; total: number }> {
      return db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          const total = await countMatching(trx, filter);
          const ids = total > page.offset ? await pageIds(trx, filter, sort, page) : [];
          return { history: await loadInOrder(trx, ids), total };
        });
    },

    /** The next `limit` rows after `cursor` in the list's order (keyset, so every batch costs the same). */
    async batch(
      filter: HistoryFilter,
      sort: HistorySort,
      cursor: HistoryCursor | null,
      limit: number,
    ): Promise<{ messages: HistoryMessage[]; next: HistoryCursor | null }> {
      const column = sortColumns[sort.field];
      let query = orderedIds(db, filter, sort);
      if (cursor) {
        const after = sql`(${column.expr}, m.id) ${sort.order === 'asc' ? sql`>` : sql`<`} (cast(${cursor.key} as ${column.type}), ${cursor.id}::bigint)`;
        query = query.where(after as RawBuilder<SqlBool>);
      }
      const rows = await query
        .select(['m.id', sql<string>`(${column.expr})::text`.as('sort_key')])
        .limit(limit)
        .execute();
      const last = rows.at(-1);
      return {
        messages: await loadInOrder(
          db,
          rows.map((row) => row.id),
        ),
        next: last && rows.length === limit ? { key: last.sort_key, id: last.id } : null,
      };
    },

    /**
     * The neighbour of message `id` in the default order (created_at desc, id desc), optionally
     * among one user's messages: 'newer' is the row above it, 'older' the row below.
     */
    async neighbour(id: number, direction: 'newer' | 'older', userId?: number): Promise<HistoryMessage | undefined> {
      const anchor = sql`(select a.created_at, a.id from messages a where a.id = ${id})`;
      let query = db
        .selectFrom('messages as m')
        .select('m.id')
        .where(
          direction === 'older'
            ? sql<SqlBool>`(m.created_at, m.id) < ${anchor}`
            : sql<SqlBool>`(m.created_at, m.id) > ${anchor}`,
        )
        .orderBy('m.created_at', direction === 'older' ? 'desc' : 'asc')
        .orderBy('m.id', direction === 'older' ? 'desc' : 'asc')
        .limit(1);
      if (userId !== undefined) query = query.where('m.user_id', '=', userId);
      const row = await query.executeTakeFirst();
      return row ? (await loadInOrder(db, [row.id]))[0] : undefined;
    },

    async exists(id: number): Promise<boolean> {
      const row = await db.selectFrom('messages').select('id').where('id', '=', String(id)).executeTakeFirst();
      return row !== undefined;
    },
  };
}
