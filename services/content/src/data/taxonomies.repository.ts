import type { ArticleCategory, ArticleTag, SelectOption } from '@gpt/contracts';
import { sql, type Kysely } from 'kysely';
import type { ContentDatabase } from './schema';

/** Categories and tags behave alike: a table of names and slugs, and a link table to articles. */
export type TaxonomyKind = 'category' | 'tag';

const TABLES = {
  category: { table: 'article_categories', links: 'article_category_links', key: 'category_id' },
  tag: { table: 'article_tags', links: 'article_tag_links', key: 'tag_id' },
} as const;

export type CategoryValues = Omit<ArticleCategory, 'id'>;
export type TagValues = Omit<ArticleTag, 'id'>;
type Values<K extends TaxonomyKind> = K extends 'category' ? CategoryValues : TagValues;
type Row<K extends TaxonomyKind> = K extends 'category' ? ArticleCategory : ArticleTag;

const COLUMNS = {
  category: ['id', 'name', 'slug', 'description', 'meta_title', 'meta_description'],
  tag: ['id', 'name', 'slug', 'description'],
} as const;

/** The unique constraint of a name or slug (the constraint names of migration 0001). */
export const uniqueConstraintsOf = (kind: TaxonomyKind) => ({
  name: `${TABLES[kind].table}_name_key`,
  slug: `${TABLES[kind].table}_slug_key`,
});

/**
 * One repository for both kinds. Kysely cannot type a table chosen at run time, so this file is
 * the one place that widens the database type; callers get typed rows per kind.
 */
export function taxonomiesRepository<K extends TaxonomyKind>(db: Kysely<ContentDatabase>, kind: K) {
  const { table, links, key } = TABLES[kind];
  const columns = COLUMNS[kind];
  const loose = db as unknown as Kysely<Record<string, Record<string, unknown>>>;

  return {
    async list(): Promise<Row<K>[]> {
      const rows = await loose.selectFrom(table).select(columns).orderBy('name').execute();
      return rows as Row<K>[];
    },

    async findById(id: number): Promise<Row<K> | undefined> {
      const row = await loose.selectFrom(table).select(columns).where('id', '=', id).executeTakeFirst();
      return row as Row<K> | undefined;
    },

    async idBySlug(slug: string): Promise<number | undefined> {
      const row = await loose.selectFrom(table).select('id').where('slug', '=', slug).executeTakeFirst();
      return row?.id as number | undefined;
    },

    /** The ids among `ids` that do not exist. */
    async missingIds(ids: readonly number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await loose.selectFrom(table).select('id').where('id', 'in', ids).execute();
      const found = new Set(rows.map((row) => row.id as number));
      return ids.filter((id) => !found.has(id));
    },

    /**
     * Select options, the most used first (by published articles visible now), then by name: the
     * public page shows the first ones as its popular tags; the admin form sorts them itself.
     */
    async selectOptions(): Promise<SelectOption[]> {
      const rows = await loose
        .selectFrom(`${table} as t`)
        .leftJoin(
          (qb) =>
            qb
              .selectFrom(`${links} as l`)
              .innerJoin('articles as a', 'a.id', 'l.article_id')
              .where('a.status', '=', 'published')
              .where('a.published_at', '<=', sql<Date>`now()`)
              .select([`l.${key} as taxonomy_id`, (eb) => eb.fn.countAll<string>().as('article_count')])
              .groupBy(`l.${key}`)
              .as('c'),
          'c.taxonomy_id',
          't.id',
        )
        .select(['t.id', 't.name', 't.slug', sql<string>`coalesce(c.article_count, 0)`.as('article_count')])
        .orderBy(sql`coalesce(c.article_count, 0)`, 'desc')
        .orderBy('t.name')
        .execute();
      return rows.map((row) => ({
        id: row.id as number,
        name: row.name as string,
        slug: row.slug as string,
        article_count: Number(row.article_count),
      }));
    },

    async insert(values: Values<K>): Promise<Row<K>> {
      const row = await loose.insertInto(table).values(values).returning(columns).executeTakeFirstOrThrow();
      return row as Row<K>;
    },

    async update(id: number, values: Values<K>): Promise<Row<K> | undefined> {
      const row = await loose
        .updateTable(table)
        .set({ ...values, updated_at: sql`now()` })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst();
      return row as Row<K> | undefined;
    },

    /** Deletes it; the links to articles go with it (foreign keys cascade). */
    async delete(id: number): Promise<boolean> {
      const result = await loose.deleteFrom(table).where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Inserts the ones whose slug is not there yet; returns every slug's id. */
    async ensure(items: readonly Values<K>[]): Promise<Map<string, number>> {
      if (items.length === 0) return new Map();
      await loose
        .insertInto(table)
        .values([...items])
        .onConflict((oc) => oc.doNothing())
        .execute();
      const slugs = items.map((item) => item.slug);
      const rows = await loose.selectFrom(table).select(['id', 'slug']).where('slug', 'in', slugs).execute();
      return new Map(rows.map((row) => [row.slug as string, row.id as number]));
    },
  };
}

export type TaxonomiesRepository<K extends TaxonomyKind> = ReturnType<typeof taxonomiesRepository<K>>;
