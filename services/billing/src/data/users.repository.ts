import type { UserDeletedData, UserUpdatedData } from '@gpt/contracts';
import { sql, type Kysely } from 'kysely';
import type { BillingDatabase } from './schema';

/** What billing knows of a user: the receipt e-mail and the names shown next to payments. */
export interface BillingUser {
  id: number;
  email: string | null;
  username: string | null;
  telegramId: number | null;
  telegramEmail: string | null;
  mergedInto: number | null;
  referralCode: string | null;
  /** Who invited the user (null: nobody). */
  referredBy: number | null;
  deleted: boolean;
}

type UserSnapshot = Omit<UserUpdatedData, 'updated_at'>;

/** The longest chain of merges followed (a survivor may itself be merged later). */
const MAX_MERGE_HOPS = 8;

export function usersRepository(db: Kysely<BillingDatabase>) {
  return {
    /** Stores auth's snapshot unless a newer one is already here; answers whether it was applied. */
    async upsertSnapshot(user: UserSnapshot): Promise<boolean> {
      const values = {
        id: user.user_id,
        email: user.email,
        username: user.username,
        first_name: user.first_name,
        last_name: user.last_name,
        telegram_id: user.telegram_id,
        telegram_email: user.telegram_email,
        referral_code: user.referral_code,
        referred_by: user.referred_by,
        version: user.version,
      };
      const row = await db
        .insertInto('users')
        .values(values)
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet({ ...values, updated_at: sql<Date>`now()` })
            .where('users.version', '<', user.version),
        )
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async markDeleted(user: UserDeletedData): Promise<void> {
      await db
        .insertInto('users')
        .values({ id: user.user_id, email: user.email, version: user.version, deleted_at: user.deleted_at })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet({ deleted_at: user.deleted_at, version: user.version, updated_at: sql<Date>`now()` })
            .where('users.version', '<=', user.version),
        )
        .execute();
    },

    async markMerged(userId: number, survivorId: number): Promise<void> {
      await db
        .insertInto('users')
        .values({ id: userId, version: 0, merged_into: survivorId })
        .onConflict((oc) => oc.column('id').doUpdateSet({ merged_into: survivorId, updated_at: sql<Date>`now()` }))
        .execute();
    },

    async find(id: number): Promise<BillingUser | null> {
      const row = await db
        .selectFrom('users')
        .select([
          'id',
          'email',
          'username',
          'telegram_id',
          'telegram_email',
          'merged_into',
          'referral_code',
          'referred_by',
          'deleted_at',
        ])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        email: row.email,
        username: row.username,
        telegramId: row.telegram_id === null ? null : Number(row.telegram_id),
        telegramEmail: row.telegram_email,
        mergedInto: row.merged_into,
        referralCode: row.referral_code,
        referredBy: row.referred_by,
        deleted: row.deleted_at !== null,
      };
    },

    /** The live account a Telegram user pays from (a merged-away account no longer counts). */
    async findByTelegramId(telegramId: number): Promise<BillingUser | null> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where('telegram_id', '=', String(telegramId))
        .where('merged_into', 'is', null)
        .where('deleted_at', 'is', null)
        .orderBy('version', 'desc')
        .executeTakeFirst();
      return row ? this.find(row.id) : null;
    },

    /** The account that now holds `userId`'s money: itself, or the survivor it was merged into. */
    async resolve(userId: number): Promise<number> {
      let id = userId;
      for (let hop = 0; hop < MAX_MERGE_HOPS; hop++) {
        const row = await db.selectFrom('users').select('merged_into').where('id', '=', id).executeTakeFirst();
        if (!row?.merged_into) return id;
        id = row.merged_into;
      }
      return id;
    },
  };
}
