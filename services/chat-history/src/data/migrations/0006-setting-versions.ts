import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Every change of a setting takes the next number of one sequence: `setting.changed` carries it,
 * so billing's projection of a setting never goes back to an older value (also across a delete
 * and a new setting of the same key).
 */
export const settingVersionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create sequence sys_vals_version`.execute(db);
    await db.schema
      .alterTable('sys_vals')
      .addColumn('version', 'bigint', (col) => col.notNull().defaultTo(sql`nextval('sys_vals_version')`))
      .execute();
  },
};
