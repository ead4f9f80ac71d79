import type { AdminTariffsQuery, TariffInput } from '@gpt/contracts';
import { listPage } from '@gpt/kit';
import { sql, type Kysely, type Selectable } from 'kysely';
import { toSafeInt } from './numbers';
import type { BillingDatabase, TariffsTable } from './schema';

export interface Tariff {
  id: number;
  name: string;
  description: string | null;
  monthly_price: string;
  credits_per_ruble: number;
  included_credits: number;
  can_generate_images: boolean;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export type NewTariff = TariffInput;

function toTariff(row: Selectable<TariffsTable>): Tariff {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    monthly_price: row.monthly_price,
    credits_per_ruble: row.credits_per_ruble,
    included_credits: toSafeInt(row.included_credits),
    can_generate_images: row.can_generate_images,
    is_active: row.is_active,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function tariffsRepository(db: Kysely<BillingDatabase>) {
  return {
    async listActive(): Promise<Tariff[]> {
      const rows = await db.selectFrom('tariffs').selectAll().where('is_active', '=', true).orderBy('id').execute();
      return rows.map(toTariff);
    },

    /** Inserts the tariffs whose names are not there yet; existing ones are left as the admin set them. */
    async insertMissing(tariffs: NewTariff[]): Promise<number> {
      const inserted = await db
        .insertInto('tariffs')
        .values(tariffs)
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('id')
        .execute();
      return inserted.length;
    },

    /** Makes the named tariff the default one unless some tariff already is. */
    async markDefaultIfNone(name: string): Promise<void> {
      await db
        .updateTable('tariffs')
        .set({ is_default: true })
        .where('name', '=', name)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('tariffs as t').select('t.id').where('t.is_default', '=', true))),
        )
        .execute();
    },

    async page(query: AdminTariffsQuery): Promise<{ data: Tariff[]; total: number }> {
      const { rows, total } = await listPage(
        db.selectFrom('tariffs').selectAll(),
        { by: query.sortField, order: query.sortOrder },
        query,
      );
      return { data: rows.map(toTariff), total };
    },

    async options(): Promise<Array<Pick<Tariff, 'id' | 'name' | 'monthly_price'>>> {
      return db.selectFrom('tariffs').select(['id', 'name', 'monthly_price']).orderBy('id').execute();
    },

    async findById(id: number): Promise<Tariff | null> {
      const row = await db.selectFrom('tariffs').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toTariff(row) : null;
    },

    async findDefault(): Promise<Tariff> {
      const row = await db.selectFrom('tariffs').selectAll().where('is_default', '=', true).executeTakeFirstOrThrow();
      return toTariff(row);
    },

    async isDefault(id: number): Promise<boolean> {
      const row = await db.selectFrom('tariffs').select('is_default').where('id', '=', id).executeTakeFirst();
      return row?.is_default ?? false;
    },

    /** Another tariff with this name, compared without case (names are what users tell apart). */
    async nameTaken(name: string, exceptId?: number): Promise<boolean> {
      let query = db
        .selectFrom('tariffs')
        .select('id')
        .where(sql<string>`lower(name)`, '=', name.toLowerCase());
      if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    async create(input: NewTariff): Promise<Tariff> {
      const row = await db.insertInto('tariffs').values(input).returningAll().executeTakeFirstOrThrow();
      return toTariff(row);
    },

    async update(id: number, input: NewTariff): Promise<Tariff | null> {
      const row = await db
        .updateTable('tariffs')
        .set({ ...input, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? toTariff(row) : null;
    },

    async delete(id: number): Promise<boolean> {
      const result = await db.deleteFrom('tariffs').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** How many balances hold the tariff (or keep it to come back), payments name it and promo codes give it (any blocks deletion). */
    async usage(id: number): Promise<{ holders: number; payments: number; promoCodes: number }> {
      const [holders, payments, promoCodes] = await Promise.all([
        db
          .selectFrom('balances')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where((eb) => eb.or([eb('tariff_id', '=', id), eb('resume_tariff_id', '=', id)]))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tariff_id', '=', id)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('promo_codes')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tariff_id', '=', id)
          .executeTakeFirstOrThrow(),
      ]);
      return { holders: toSafeInt(holders.n), payments: toSafeInt(payments.n), promoCodes: toSafeInt(promoCodes.n) };
    },
  };
}
