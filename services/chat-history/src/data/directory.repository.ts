import type { Kysely } from 'kysely';
import type { ChatHistoryDatabase } from './schema';

/** One user as auth last described it. */
export interface DirectorySnapshot {
  user_id: number;
  telegram_id: number | null;
  email: string | null;
  username: string | null;
  telegram_username: string | null;
  first_name: string | null;
  last_name: string | null;
  version: number;
}

export interface DirectoryUser {
  user_id: number;
  telegram_id: number | null;
  /** The name the history shows: the site username, else the Telegram one. */
  username: string | null;
}

/** How many merges deep a user id is followed to the account that absorbed it. */
const MAX_MERGE_HOPS = 10;

type Db = Kysely<ChatHistoryDatabase>;

/** A Telegram account belongs to one user: whoever takes it, the others let go. */
async function releaseTelegramId(db: Db, telegramId: number, keeper: number): Promise<void> {
  await db
    .updateTable('directory_users')
    .set({ telegram_id: null })
    .where('telegram_id', '=', String(telegramId))
    .where('user_id', '<>', keeper)
    .execute();
}

/** The users directory: a projection of auth's users, fed by its events only. */
export function directoryRepository(db: Db) {
  return {
    /** Applies a snapshot unless a newer one was applied, or the user is gone (deleted or merged). */
    async applySnapshot(snapshot: DirectorySnapshot): Promise<boolean> {
      const current = await db
        .selectFrom('directory_users')
        .select(['version', 'deleted_at', 'merged_into'])
        .where('user_id', '=', snapshot.user_id)
        .forUpdate()
        .executeTakeFirst();
      if (current && (current.version >= snapshot.version || current.deleted_at || current.merged_into)) return false;
      if (snapshot.telegram_id !== null) await releaseTelegramId(db, snapshot.telegram_id, snapshot.user_id);
      await db
        .insertInto('directory_users')
        .values(snapshot)
        .onConflict((oc) => oc.column('user_id').doUpdateSet(snapshot))
        .execute();
      return true;
    },

    /** The messages stay; the user is shown as deleted. A row is made if the user was never seen. */
    async markDeleted(event: { user_id: number; deleted_at: string; version: number }): Promise<void> {
      await db
        .insertInto('directory_users')
        .values({ user_id: event.user_id, version: event.version, deleted_at: event.deleted_at })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({ deleted_at: event.deleted_at, telegram_id: null, version: event.version }),
        )
        .execute();
    },

    /**
     * `telegramId` now belongs to `userId`; when `mergedUserId` is given, that user's messages move to
     * `userId` and the merged user resolves to it from now on.
     */
    async link(link: { userId: number; mergedUserId: number | null; telegramId: number }): Promise<number> {
      let moved = 0;
      if (link.mergedUserId !== null && link.mergedUserId !== link.userId) {
        const result = await db
          .updateTable('messages')
          .set({ user_id: link.userId })
          .where('user_id', '=', link.mergedUserId)
          .executeTakeFirst();
        moved = Number(result.numUpdatedRows);
        await db
          .insertInto('directory_users')
          .values({ user_id: link.mergedUserId, version: -1, merged_into: link.userId })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ merged_into: link.userId, telegram_id: null }))
          .execute();
        // Accounts merged into the merged one follow it.
        await db
          .updateTable('directory_users')
          .set({ merged_into: link.userId })
          .where('merged_into', '=', link.mergedUserId)
          .execute();
      }
      await releaseTelegramId(db, link.telegramId, link.userId);
      // Until auth's next snapshot of the user arrives, the link alone makes the bot's telegram_id resolve.
      await db
        .insertInto('directory_users')
        .values({ user_id: link.userId, telegram_id: link.telegramId, version: -1 })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ telegram_id: link.telegramId }))
        .execute();
      return moved;
    },

    /** The live user holding this Telegram account. */
    async findByTelegramId(telegramId: number): Promise<DirectoryUser | undefined> {
      const row = await db
        .selectFrom('directory_users')
        .select(['user_id', 'telegram_id', 'username', 'telegram_username'])
        .where('telegram_id', '=', String(telegramId))
        .where('deleted_at', 'is', null)
        .where('merged_into', 'is', null)
        .executeTakeFirst();
      return row && toDirectoryUser(row);
    },

    /** The live user with this id, following merges to the surviving account. */
    async findLive(userId: number): Promise<DirectoryUser | undefined> {
      let id = userId;
      for (let hop = 0; hop <= MAX_MERGE_HOPS; hop += 1) {
        const row = await db
          .selectFrom('directory_users')
          .select(['user_id', 'telegram_id', 'username', 'telegram_username', 'deleted_at', 'merged_into'])
          .where('user_id', '=', id)
          .executeTakeFirst();
        if (!row || row.deleted_at) return undefined;
        if (row.merged_into === null) return toDirectoryUser(row);
        id = row.merged_into;
      }
      return undefined;
    },
  };
}

function toDirectoryUser(row: {
  user_id: number;
  telegram_id: string | null;
  username: string | null;
  telegram_username: string | null;
}): DirectoryUser {
  return {
    user_id: row.user_id,
    telegram_id: row.telegram_id === null ? null : Number(row.telegram_id),
    username: row.username ?? row.telegram_username,
  };
}
