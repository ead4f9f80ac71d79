import type { Kysely } from 'kysely';
import type { ChatHistoryDatabase } from './schema';

export interface StoredMedia {
  contentType: string;
  data: Uint8Array;
}

type Db = Kysely<ChatHistoryDatabase>;

/** Images attached to messages, kept in the database so any replica can serve them. */
export const mediaRepository = {
  async insert(db: Db, media: { id: string; contentType: string; data: Uint8Array }): Promise<void> {
    await db
      .insertInto('media')
      .values({ id: media.id, content_type: media.contentType, size: media.data.byteLength, data: media.data })
      .execute();
  },

  async find(db: Db, id: string): Promise<StoredMedia | undefined> {
    const row = await db.selectFrom('media').select(['content_type', 'data']).where('id', '=', id).executeTakeFirst();
    return row && { contentType: row.content_type, data: row.data };
  },
};
