import type { AdminPromoCodesQuery, PromoCode, PromoKind, PromoRedemption } from '@gpt/contracts';
import { containsPattern, listPage } from '@gpt/kit';
import { sql, type Kysely } from 'kysely';
import { toSafeInt } from './numbers';
import type { BillingDatabase } from './schema';

/** What an admin sets on a code (the code upper case). */
export interface PromoCodeFields {
  code: string;
  kind: PromoKind;
  credits: number | null;
  tariffId: number | null;
  tariffDays: number | null;
  maxUses: number;
  validFrom: Date | null;
  validUntil: Date | null;
  isActive: boolean;
}

/** A code as redeeming reads it. */
export interface PromoCodeRecord extends PromoCodeFields {
  id: number;
  usedCount: number;
}

const toColumns = (fields: PromoCodeFields) => ({
  code: fields.code,
  kind: fields.kind,
  credits: fields.kind === 'credits' ? fields.credits : null,
  tariff_id: fields.kind === 'tariff' ? fields.tariffId : null,
  tariff_days: fields.kind === 'tariff' ? fields.tariffDays : null,
  max_uses: fields.maxUses,
  valid_from: fields.validFrom,
  valid_until: fields.validUntil,
  is_active: fields.isActive,
});

export function promoCodesRepository(db: Kysely<BillingDatabase>) {
  const withTariff = () =>
    db
      .selectFrom('promo_codes')
      .leftJoin('tariffs', 'tariffs.id', 'promo_codes.tariff_id')
      .selectAll('promo_codes')
      .select('tariffs.name as tariff_name');
  type Row = Awaited<ReturnType<ReturnType<typeof withTariff>['executeTakeFirstOrThrow']>>;
  const toPromoCode = (row: Row): PromoCode => ({
    id: row.id,
    code: row.code,
    kind: row.kind,
    credits: row.credits === null ? null : toSafeInt(row.credits),
    tariff_id: row.tariff_id,
    tariff_name: row.tariff_name,
    tariff_days: row.tariff_days,
    max_uses: row.max_uses,
    used_count: row.used_count,
    valid_from: row.valid_from?.toISOString() ?? null,
    valid_until: row.valid_until?.toISOString() ?? null,
    is_active: row.is_active,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });

  return {
    async page(query: AdminPromoCodesQuery): Promise<{ data: PromoCode[]; total: number }> {
      const filtered = query.search
        ? withTariff().where('promo_codes.code', 'ilike', containsPattern(query.search))
        : withTariff();
      const { rows, total } = await listPage(
        filtered,
        { by: `promo_codes.${query.sortField}`, order: query.sortOrder, nulls: 'last', id: 'promo_codes.id' },
        query,
      );
      return { data: rows.map(toPromoCode), total };
    },

    async findById(id: number): Promise<PromoCode | null> {
      const row = await withTariff().where('promo_codes.id', '=', id).executeTakeFirst();
      return row ? toPromoCode(row) : null;
    },

    async create(fields: PromoCodeFields): Promise<number> {
      const row = await db
        .insertInto('promo_codes')
        .values(toColumns(fields))
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Changes a code; false when it is gone. */
    async update(id: number, fields: PromoCodeFields): Promise<boolean> {
      const result = await db
        .updateTable('promo_codes')
        .set({ ...toColumns(fields), updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes a code nobody used; false when it is gone or was used. */
    async deleteUnused(id: number): Promise<boolean> {
      const result = await db
        .deleteFrom('promo_codes')
        .where('id', '=', id)
        .where('used_count', '=', 0)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Locks a code by its text until the transaction ends: redemptions of one code queue here. */
    async lockByCode(code: string): Promise<PromoCodeRecord | null> {
      const row = await db
        .selectFrom('promo_codes')
        .selectAll()
        .where('code', '=', code)
        .forUpdate()
        .executeTakeFirst();
      return row
        ? {
            id: row.id,
            code: row.code,
            kind: row.kind,
            credits: row.credits === null ? null : toSafeInt(row.credits),
            tariffId: row.tariff_id,
            tariffDays: row.tariff_days,
            maxUses: row.max_uses,
            usedCount: row.used_count,
            validFrom: row.valid_from,
            validUntil: row.valid_until,
            isActive: row.is_active,
          }
        : null;
    },

    /** Credit codes both accounts redeemed, each with the credits it gave (for a merge: one use per person). */
    async creditsRedeemedByBoth(first: number, second: number): Promise<Array<{ id: number; credits: number }>> {
      const rows = await db
        .selectFrom('promo_codes')
        .select(['promo_codes.id', 'promo_codes.credits'])
        .where('promo_codes.kind', '=', 'credits')
        .where((eb) =>
          eb.and(
            [first, second].map((userId) =>
              eb.exists(
                eb
                  .selectFrom('promo_redemptions')
                  .select('promo_redemptions.id')
                  .whereRef('promo_redemptions.promo_code_id', '=', 'promo_codes.id')
                  .where('promo_redemptions.user_id', '=', userId),
              ),
            ),
          ),
        )
        .execute();
      return rows.map((row) => ({ id: row.id, credits: row.credits === null ? 0 : toSafeInt(row.credits) }));
    },

    /** Whether the person (`holder` and the accounts merged into it) has redeemed the code. */
    async redeemedBy(promoCodeId: number, holder: number): Promise<boolean> {
      const row = await db
        .selectFrom('promo_redemptions')
        .select('id')
        .where('promo_code_id', '=', promoCodeId)
        .where('user_id', 'in', (eb) =>
          eb
            .selectFrom('users')
            .select('users.id')
            .where((inner) => inner.or([inner('users.id', '=', holder), inner('users.merged_into', '=', holder)])),
        )
        .executeTakeFirst();
      return row !== undefined;
    },

    /** One use by the person `holder`; the code row is locked by the caller. */
    async redeem(promoCodeId: number, holder: number): Promise<void> {
      await db.insertInto('promo_redemptions').values({ promo_code_id: promoCodeId, user_id: holder }).execute();
      await db
        .updateTable('promo_codes')
        .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
        .where('id', '=', promoCodeId)
        .execute();
    },

    /** Who used a code, newest first. */
    async redemptions(promoCodeId: number): Promise<PromoRedemption[]> {
      const rows = await db
        .selectFrom('promo_redemptions')
        .leftJoin('users', 'users.id', 'promo_redemptions.user_id')
        .select([
          'promo_redemptions.user_id',
          'promo_redemptions.redeemed_at',
          'users.email',
          'users.username',
          'users.telegram_id',
        ])
        .where('promo_redemptions.promo_code_id', '=', promoCodeId)
        .orderBy('promo_redemptions.id', 'desc')
        .execute();
      return rows.map((row) => ({
        user_id: row.user_id,
        email: row.email,
        username: row.username,
        telegram_id: row.telegram_id === null ? null : Number(row.telegram_id),
        redeemed_at: row.redeemed_at.toISOString(),
      }));
    },
  };
}
