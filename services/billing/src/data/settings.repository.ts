import { sql, type Kysely } from 'kysely';
import type { BillingDatabase } from './schema';

/** Billing's projection of chat-history's settings (only the keys billing needs). */
export function settingsRepository(db: Kysely<BillingDatabase>) {
  return {
    /** Keeps the value unless a newer version is already stored; a null value is a deleted setting. */
    async offer(key: string, value: string | null, version: number): Promise<void> {
      await db
        .insertInto('settings')
        .values({ key, value, version })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({ value, version, updated_at: sql<Date>`now()` })
            .where('settings.version', '<', String(version)),
        )
        .execute();
    },
    /** The stored value; undefined when billing has not heard of the setting (null: deleted). */
    async find(key: string): Promise<string | null | undefined> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value;
    },
  };
}
