import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Trigram indexes for the history's text filter (ILIKE '%…%' over user_message and bot_response).
 * pg_trgm ships with PostgreSQL's contrib but not with PGlite: where it cannot be created the
 * filter still works, by a scan, which is fine at the sizes an embedded run holds.
 */
export const textSearchMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      do $$
      begin
        begin
          create extension if not exists pg_trgm;
        exception when others then
          raise notice 'pg_trgm is not available; the history text filter will scan';
        end;
        if exists (select 1 from pg_extension where extname = 'pg_trgm') then
          create index messages_user_message_trgm on messages using gin (user_message gin_trgm_ops);
          create index messages_bot_response_trgm on messages using gin (bot_response gin_trgm_ops);
        end if;
      end
      $$`.execute(db);
  },
};
