import { sql, type Kysely, type Migration } from 'kysely';

/** Adds (sign 1) or removes (sign -1) the rows of a transition table to the counters. */
function countRows(table: 'new_rows' | 'old_rows', sign: 1 | -1) {
  const rows = sql.raw(table);
  const times = sql.raw(String(sign));
  return sql`
    insert into message_counts (user_id, n)
      select user_id, ${times} * count(*) from ${rows} group by user_id order by user_id
      on conflict (user_id) do update set n = message_counts.n + excluded.n;
    insert into message_hours (hour, n)
      select message_hour(created_at), ${times} * count(*) from ${rows} group by 1 order by 1
      on conflict (hour) do update set n = message_hours.n + excluded.n;`;
}

/**
 * Message counts kept by triggers, so the history's totals and deep pages never count a million
 * rows: per user (totals of the userId and username filters) and per hour of created_at (the
 * unfiltered total, and where page N of the default order starts). Statement-level triggers with
 * transition tables: a bulk insert or a merge's re-pointing updates each counter once.
 */
export const messageCountsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table message_counts (user_id integer primary key, n bigint not null)`.execute(db);
    await sql`create table message_hours (hour timestamptz primary key, n bigint not null)`.execute(db);
    await sql`
      create function message_hour(at timestamptz) returns timestamptz language sql immutable
      as $$ select date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00') $$`.execute(db);

    const triggers = [
      ['insert', 'new table as new_rows', countRows('new_rows', 1)],
      ['delete', 'old table as old_rows', countRows('old_rows', -1)],
      [
        'update',
        'old table as old_rows new table as new_rows',
        sql`${countRows('old_rows', -1)} ${countRows('new_rows', 1)}`,
      ],
    ] as const;
    for (const [event, transition, body] of triggers) {
      const name = sql.raw(`messages_counted_${event}`);
      await sql`create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`.execute(
        db,
      );
      await sql`
        create trigger ${name} after ${sql.raw(event)} on messages
        referencing ${sql.raw(transition)} for each statement execute function ${name}()`.execute(db);
    }

    await sql`insert into message_counts (user_id, n) select user_id, count(*) from messages group by user_id`.execute(
      db,
    );
    await sql`insert into message_hours (hour, n) select message_hour(created_at), count(*) from messages group by 1`.execute(
      db,
    );
  },
};
