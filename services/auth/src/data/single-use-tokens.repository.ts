import type { Kysely } from 'kysely';
import type { AuthDatabase } from './schema';

export interface SingleUseToken {
  id: number;
  userId: number;
  expiresAt: Date;
  usedAt: Date | null;
}

interface SingleUseTokenRow {
  id: number;
  user_id: number;
  expires_at: Date | string;
  used_at: Date | string | null;
}

const toToken = (row: SingleUseTokenRow | undefined): SingleUseToken | undefined =>
  row && {
    id: row.id,
    userId: row.user_id,
    expiresAt: new Date(row.expires_at),
    usedAt: row.used_at === null ? null : new Date(row.used_at),
  };

/** The tables of single-use links (the same columns each): password recovery, e-mail confirmation, sign-in from the bot. */
export type SingleUseTokenTable = 'password_reset_tokens' | 'email_confirmation_tokens' | 'sign_in_tokens';

/** One table of single-use link tokens, looked up by the hash of the token. */
export function singleUseTokensRepository(db: Kysely<AuthDatabase>, table: SingleUseTokenTable) {
  const byHash = (hash: string) =>
    db.selectFrom(table).select(['id', 'user_id', 'expires_at', 'used_at']).where('token_hash', '=', hash);
  return {
    async create(token: { hash: string; userId: number; expiresAt: Date }): Promise<void> {
      await db
        .insertInto(table)
        .values({ token_hash: token.hash, user_id: token.userId, expires_at: token.expiresAt })
        .execute();
    },

    /** Tokens issued to the user since `since`: the hourly allowance of mails. */
    async countSince(userId: number, since: Date): Promise<number> {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('user_id', '=', userId)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** The token row, for a check before the costly work of using it. */
    async find(hash: string): Promise<SingleUseToken | undefined> {
      return toToken(await byHash(hash).executeTakeFirst());
    },

    /** The token row, locked until the transaction ends so it is used once. */
    async findForUpdate(hash: string): Promise<SingleUseToken | undefined> {
      return toToken(await byHash(hash).forUpdate().executeTakeFirst());
    },

    /** Marks this token used and voids every other open token of the user. */
    async useAll(userId: number): Promise<void> {
      await db
        .updateTable(table)
        .set({ used_at: new Date() })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },
  };
}
