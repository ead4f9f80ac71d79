import type { Kysely } from 'kysely';
import type { AuthDatabase } from './schema';

export interface LinkToken {
  id: number;
  telegramId: string;
  expiresAt: Date;
  usedAt: Date | null;
  /** The Telegram account's profile photo, as a data URL. */
  photo: string | null;
}

/** Telegram link tokens, looked up by the hash of the token. */
export function linkTokensRepository(db: Kysely<AuthDatabase>) {
  return {
    async create(token: { hash: string; telegramId: string; expiresAt: Date; photo: string | null }): Promise<void> {
      await db
        .insertInto('link_tokens')
        .values({
          token_hash: token.hash,
          telegram_id: token.telegramId,
          expires_at: token.expiresAt,
          photo: token.photo,
        })
        .execute();
    },

    /** The token row, locked until the transaction ends so it is used once. */
    async findForUpdate(hash: string): Promise<LinkToken | undefined> {
      const row = await db
        .selectFrom('link_tokens')
        .select(['id', 'telegram_id', 'expires_at', 'used_at', 'photo'])
        .where('token_hash', '=', hash)
        .forUpdate()
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          telegramId: String(row.telegram_id),
          expiresAt: new Date(row.expires_at),
          usedAt: row.used_at === null ? null : new Date(row.used_at),
          photo: row.photo,
        }
      );
    },

    async markUsed(id: number, userId: number): Promise<void> {
      await db.updateTable('link_tokens').set({ used_at: new Date(), used_by: userId }).where('id', '=', id).execute();
    },
  };
}
