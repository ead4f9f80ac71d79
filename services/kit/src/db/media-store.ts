import { sql, type ColumnType, type Kysely, type Transaction } from 'kysely';
import type { StoredImage } from '../http/media';

/** Images a service keeps in its own database, so any replica can serve them. */
export interface MediaTable {
  id: string;
  content_type: string;
  size: number;
  data: Uint8Array;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface MediaTables {
  media: MediaTable;
}

/** The `media` table, created by a service's migration. */
export async function createMediaTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('data', 'bytea', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

/** A service's database or a transaction of it, whatever its other tables. */
type MediaDb<DB extends MediaTables> = Kysely<DB> | Transaction<DB>;

/** Reads and writes the `media` table of any service database that has one. */
export const mediaStore = {
  async insert<DB extends MediaTables>(database: MediaDb<DB>, media: { id: string } & StoredImage): Promise<void> {
    const db = database as unknown as Kysely<MediaTables>;
    await db
      .insertInto('media')
      .values({ id: media.id, content_type: media.contentType, size: media.data.byteLength, data: media.data })
      .execute();
  },

  async find<DB extends MediaTables>(database: MediaDb<DB>, id: string): Promise<StoredImage | undefined> {
    const db = database as unknown as Kysely<MediaTables>;
    const row = await db.selectFrom('media').select(['content_type', 'data']).where('id', '=', id).executeTakeFirst();
    return row && { contentType: row.content_type, data: row.data };
  },
};
