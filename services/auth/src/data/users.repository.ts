import type { AdminUsersQuery, BalanceSnapshot } from '@gpt/contracts';
import { containsPattern, listPage } from '@gpt/kit';
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import { newReferralCode } from './referral-code';
import type { AuthDatabase, UsersTable } from './schema';

export type Role = 'admin' | 'user';

export interface User {
  id: number;
  email: string | null;
  passwordHash: string | null;
  role: Role;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  utmSource: string | null;
  referralCode: string;
  /** Who invited this user (null: nobody). */
  referredBy: number | null;
  telegramLanguage: string | null;
  telegramId: string | null;
  telegramUsername: string | null;
  telegramEmail: string | null;
  /** Since when the Telegram user has the bot blocked (null: not blocked). */
  telegramBlockedAt: Date | null;
  /** The user turned the bot's broadcasts off («Новости и акции»). */
  newsOptOut: boolean;
  tokenVersion: number;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  /** When the account was confirmed; null: a site sign-up whose e-mail link was not followed yet. */
  emailConfirmedAt: Date | null;
  /** The address a site sign-up came from. */
  registrationIp: string | null;
  /** Billing's view, as last projected (Base tariff and 0 credits until billing reports). */
  balance: {
    credits: number;
    includedCredits: number;
    /** Reserved by the bot's holds: not available. */
    heldCredits: number;
    /** Free credits given once on sign-up (0: none). */
    welcomeCredits: number;
    tariffId: number | null;
    tariffName: string;
    monthlyPrice: string;
    tariffEndDate: Date | null;
    moneyDeposited: string;
  };
  /** Chat-history's view: messages recorded and dollars spent on them. */
  usage: { messagesCount: number; moneySpent: string };
}

/** The profile fields a change may touch (each change bumps `version`). */
export interface UserChanges {
  email?: string | null;
  role?: Role;
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  utmSource?: string | null;
  referredBy?: number | null;
  telegramLanguage?: string | null;
  telegramId?: string | null;
  telegramUsername?: string | null;
  telegramEmail?: string | null;
  telegramBlockedAt?: Date | null;
  newsOptOut?: boolean;
}

/** Dollars are kept with 12 decimals; show at least 6 and drop the trailing zeros beyond. */
function usd(value: string): string {
  const [whole = '0', fraction = ''] = value.split('.');
  return `${whole}.${fraction.padEnd(6, '0').replace(/(\d{6}\d*?)0+$/, '$1')}`;
}

function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    role: row.role,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    utmSource: row.utm_source,
    referralCode: row.referral_code,
    referredBy: row.referred_by,
    telegramLanguage: row.telegram_language,
    telegramId: row.telegram_id === null ? null : String(row.telegram_id),
    telegramUsername: row.telegram_username,
    telegramEmail: row.telegram_email,
    telegramBlockedAt: row.telegram_blocked_at === null ? null : new Date(row.telegram_blocked_at),
    newsOptOut: row.news_opt_out,
    tokenVersion: row.token_version,
    version: row.version,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    emailConfirmedAt: row.email_confirmed_at === null ? null : new Date(row.email_confirmed_at),
    registrationIp: row.registration_ip,
    balance: {
      credits: Number(row.credits),
      includedCredits: Number(row.included_credits),
      heldCredits: Number(row.held_credits),
      welcomeCredits: Number(row.welcome_credits),
      tariffId: row.tariff_id,
      tariffName: row.tariff_name,
      monthlyPrice: row.monthly_price,
      tariffEndDate: row.tariff_end_date === null ? null : new Date(row.tariff_end_date),
      moneyDeposited: row.money_deposited,
    },
    usage: { messagesCount: row.messages_count, moneySpent: usd(row.money_spent) },
  };
}

const columnsOf = (changes: UserChanges): Updateable<UsersTable> => {
  const columns: Updateable<UsersTable> = {};
  if (changes.email !== undefined) columns.email = changes.email === null ? null : changes.email.toLowerCase();
  if (changes.role !== undefined) columns.role = changes.role;
  if (changes.username !== undefined) columns.username = changes.username;
  if (changes.firstName !== undefined) columns.first_name = changes.firstName;
  if (changes.lastName !== undefined) columns.last_name = changes.lastName;
  if (changes.utmSource !== undefined) columns.utm_source = changes.utmSource;
  if (changes.referredBy !== undefined) columns.referred_by = changes.referredBy;
  if (changes.telegramLanguage !== undefined) columns.telegram_language = changes.telegramLanguage;
  if (changes.telegramId !== undefined) columns.telegram_id = changes.telegramId;
  if (changes.telegramUsername !== undefined) columns.telegram_username = changes.telegramUsername;
  if (changes.telegramEmail !== undefined) columns.telegram_email = changes.telegramEmail;
  if (changes.telegramBlockedAt !== undefined) columns.telegram_blocked_at = changes.telegramBlockedAt;
  if (changes.newsOptOut !== undefined) columns.news_opt_out = changes.newsOptOut;
  return columns;
};

/** Users and the auth projection; every method takes the connection or transaction to run in. */
export function usersRepository(db: Kysely<AuthDatabase>) {
  return {
    async findById(id: number): Promise<User | undefined> {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toUser(row);
    },

    /** Locks the row until the transaction ends (for read-decide-write flows). */
    async findByIdForUpdate(id: number): Promise<User | undefined> {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      return row && toUser(row);
    },

    async findByEmail(email: string): Promise<User | undefined> {
      const row = await db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
      return row && toUser(row);
    },

    async findByTelegramId(telegramId: string): Promise<User | undefined> {
      const row = await db.selectFrom('users').selectAll().where('telegram_id', '=', telegramId).executeTakeFirst();
      return row && toUser(row);
    },

    async findByTelegramIdForUpdate(telegramId: string): Promise<User | undefined> {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('telegram_id', '=', telegramId)
        .forUpdate()
        .executeTakeFirst();
      return row && toUser(row);
    },

    async create(user: {
      email: string;
      passwordHash: string;
      role: Role;
      utmSource?: string | null;
      referredBy?: number | null;
      /** A site sign-up waits for its e-mail link (null); an admin is confirmed at creation. */
      emailConfirmedAt: Date | null;
      registrationIp?: string | null;
    }): Promise<User> {
      const row = await db
        .insertInto('users')
        .values({
          email: user.email.toLowerCase(),
          password_hash: user.passwordHash,
          role: user.role,
          utm_source: user.utmSource ?? null,
          referral_code: newReferralCode(),
          referred_by: user.referredBy ?? null,
          email_confirmed_at: user.emailConfirmedAt,
          registration_ip: user.registrationIp ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    },

    /** A Telegram-only account, first seen by the bot; undefined when the telegram_id appeared meanwhile. */
    async createFromTelegram(user: {
      telegramId: string;
      username: string | null;
      firstName: string | null;
      lastName: string | null;
      utmSource: string | null;
      referredBy: number | null;
      language: string | null;
    }): Promise<User | undefined> {
      const row = await db
        .insertInto('users')
        .values({
          telegram_id: user.telegramId,
          username: user.username,
          telegram_username: user.username,
          first_name: user.firstName,
          last_name: user.lastName,
          utm_source: user.utmSource,
          referral_code: newReferralCode(),
          referred_by: user.referredBy,
          telegram_language: user.language,
          // A bot user is confirmed by their first /start.
          email_confirmed_at: new Date(),
        })
        .onConflict((oc) => oc.column('telegram_id').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row && toUser(row);
    },

    /** Applies profile changes and bumps `version`; `revokeTokens` also bumps `token_version`. */
    async update(id: number, changes: UserChanges, options: { revokeTokens?: boolean } = {}): Promise<User> {
      const row = await db
        .updateTable('users')
        .set((eb) => ({
          ...columnsOf(changes),
          version: eb('version', '+', 1),
          ...(options.revokeTokens ? { token_version: eb('token_version', '+', 1) } : {}),
          updated_at: new Date(),
        }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    },

    /** Marks the account confirmed; null when it already was (so the confirmation is announced once). */
    async confirm(id: number): Promise<User | null> {
      const row = await db
        .updateTable('users')
        .set({ email_confirmed_at: new Date() })
        .where('id', '=', id)
        .where('email_confirmed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },

    /** Changing the role revokes the user's older tokens. */
    setRole(id: number, role: Role): Promise<User> {
      return usersRepository(db).update(id, { role }, { revokeTokens: true });
    },

    /** A new password hash; every token issued before is revoked. */
    async setPassword(id: number, passwordHash: string): Promise<User> {
      const row = await db
        .updateTable('users')
        .set((eb) => ({
          password_hash: passwordHash,
          token_version: eb('token_version', '+', 1),
          updated_at: new Date(),
        }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    },

    /**
     * Marks the Telegram user as having blocked the bot (kept from the first report on) or clears the
     * mark; not a profile change (no `version` bump). Undefined: no user has this telegram_id.
     */
    async setTelegramBlocked(telegramId: string, blocked: boolean): Promise<User | undefined> {
      const row = await db
        .updateTable('users')
        .set({ telegram_blocked_at: blocked ? sql<Date>`coalesce(telegram_blocked_at, now())` : null })
        .where('telegram_id', '=', telegramId)
        .returningAll()
        .executeTakeFirst();
      return row && toUser(row);
    },

    /** The user a referral code belongs to (codes are upper case; the caller upper-cases). */
    async findIdByReferralCode(code: string): Promise<number | undefined> {
      const row = await db.selectFrom('users').select('id').where('referral_code', '=', code).executeTakeFirst();
      return row?.id;
    },

    /** The people `fromId` invited are from now on invited by `toId` (an account merged into another). */
    async moveReferrals(fromId: number, toId: number): Promise<void> {
      await db
        .updateTable('users')
        .set({ referred_by: toId })
        .where('referred_by', '=', fromId)
        .where('id', '!=', toId)
        .execute();
    },

    /** How the admin list names each inviter: e-mail, else username, else #id. */
    async referrerLabels(ids: number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('users')
        .select(['id', 'email', 'username'])
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Map(rows.map((row) => [row.id, row.email ?? (row.username ? `@${row.username}` : `#${row.id}`)]));
    },

    async delete(id: number): Promise<void> {
      await db.deleteFrom('users').where('id', '=', id).execute();
    },

    /** Locks every admin row and returns their ids, so "the last admin" is decided once at a time. */
    async lockAdmins(): Promise<number[]> {
      const rows = await db.selectFrom('users').select('id').where('role', '=', 'admin').forUpdate().execute();
      return rows.map((row) => row.id);
    },

    /** Applies billing's snapshot unless the projection already holds this version or a newer one. */
    async applyBalance(snapshot: BalanceSnapshot): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({
          credits: snapshot.credits,
          included_credits: snapshot.included_credits,
          held_credits: snapshot.held_credits,
          welcome_credits: snapshot.welcome_credits,
          tariff_id: snapshot.tariff.id,
          tariff_name: snapshot.tariff.name,
          monthly_price: snapshot.tariff.monthly_price,
          tariff_end_date: snapshot.tariff.end_date,
          money_deposited: snapshot.money_deposited,
          billing_version: snapshot.version,
        })
        .where('id', '=', snapshot.user_id)
        .where((eb) => eb.or([eb('billing_version', 'is', null), eb('billing_version', '<', snapshot.version)]))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Adds recorded messages and their dollar cost to the usage projection. */
    async addUsage(id: number, usage: { messages: number; spent: string }): Promise<void> {
      await db
        .updateTable('users')
        .set((eb) => ({
          messages_count: eb('messages_count', '+', usage.messages),
          money_spent: sql<string>`money_spent + ${usage.spent}::numeric`,
        }))
        .where('id', '=', id)
        .execute();
    },

    /** One page of the admin list: substring filters (case-insensitive), a whitelisted sort, id as tie-break. */
    async list(query: AdminUsersQuery): Promise<{ users: User[]; total: number }> {
      let filtered = db.selectFrom('users');
      if (query.email) filtered = filtered.where('email', 'ilike', containsPattern(query.email));
      if (query.username) filtered = filtered.where('username', 'ilike', containsPattern(query.username));
      if (query.utm_source) {
        const source = query.utm_source;
        filtered =
          source.toLowerCase() === 'organic'
            ? filtered.where((eb) => eb.or([eb('utm_source', 'is', null), eb('utm_source', '=', '')]))
            : filtered.where('utm_source', 'ilike', containsPattern(source));
      }
      if (query.tariff_id) filtered = filtered.where('tariff_id', '=', query.tariff_id);
      if (query.referrer === '*') filtered = filtered.where('referred_by', 'is not', null);
      else if (query.referrer) {
        const pattern = containsPattern(query.referrer);
        const code = query.referrer.toUpperCase();
        filtered = filtered.where('referred_by', 'in', (eb) =>
          eb
            .selectFrom('users as inviter')
            .select('inviter.id')
            .where((inner) =>
              inner.or([
                inner('inviter.email', 'ilike', pattern),
                inner('inviter.username', 'ilike', pattern),
                inner('inviter.referral_code', '=', code),
              ]),
            ),
        );
      }

      const { rows, total } = await listPage(
        filtered.selectAll(),
        { by: query.sortField, order: query.sortOrder, nulls: 'last' },
        query,
      );
      return { users: rows.map(toUser), total };
    },

    /** Sign-ups per utm_source; no source counts as 'organic'. */
    async utmStats(): Promise<Array<{ utmSource: string; count: number }>> {
      const source = sql<string>`coalesce(nullif(utm_source, ''), 'organic')`;
      const rows = await db
        .selectFrom('users')
        .select([source.as('utm_source'), (eb) => eb.fn.countAll<string>().as('count')])
        .groupBy(source)
        .orderBy('count', 'desc')
        .orderBy('utm_source', 'asc')
        .execute();
      return rows.map((row) => ({ utmSource: row.utm_source, count: Number(row.count) }));
    },
  };
}
