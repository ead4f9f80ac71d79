import { sql, type Kysely, type Migration } from 'kysely';

/**
 * «Новые пользователи» count the sign-ups of a day that still exist, so they never exceed
 * «Пользователи»: each removal (deletion or merge) recorded so far is taken off its user's
 * registration day, and the separate count of removals per day goes.
 */
export const newUsersStillPresentMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      update daily_stats d
         set new_users = d.new_users - gone.count
        from (select registered_day as day, count(*)::integer as count
                from user_presence
               where registered_day is not null and removed_day is not null
               group by registered_day) as gone
       where d.day = gone.day`.execute(db);
    await db.schema.alterTable('daily_stats').dropColumn('removed_users').execute();
  },
};
