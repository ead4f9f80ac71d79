import type { AdminArticle, AdminArticlesQuery, ArticleCard, ArticleStatus, PublicArticle } from '@gpt/contracts';
import { listPage } from '@gpt/kit';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { ContentDatabase } from './schema';

type Db = Kysely<ContentDatabase>;
type ArticleScope = ExpressionBuilder<ContentDatabase & { a: ContentDatabase['articles'] }, 'a'>;

/** Which published articles a public list shows. */
export type PublicFilter =
  | { kind: 'all' }
  | { kind: 'category'; categoryId: number }
  | { kind: 'tag'; tagId: number }
  /** Full-text match with a `to_tsquery('russian', …)` expression, ranked. */
  | { kind: 'text'; tsquery: string };

export interface PageRequest {
  page: number;
  limit: number;
}

/** Everything an article is made of, as the admin writes it (already sanitized). */
export interface ArticleValues {
  slug: string;
  title: string;
  excerpt: string | null;
  content: string;
  plain_text: string;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  og_title: string | null;
  og_description: string | null;
  og_image: string | null;
  canonical_url: string | null;
  status: ArticleStatus;
  featured_image: string | null;
  reading_time: number;
  published_at: Date | null;
}

/** An article's state the update use case decides from. */
export interface StoredArticle {
  id: number;
  status: ArticleStatus;
  published_at: Date | null;
}

/** The raw material of the SEO head and the sitemap. */
export interface ArticleSeoSource {
  slug: string;
  title: string;
  excerpt: string | null;
  plain_text: string;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  og_title: string | null;
  og_description: string | null;
  og_image: string | null;
  featured_image: string | null;
  canonical_url: string | null;
  published_at: Date;
  updated_at: Date;
}

export const ARTICLE_SLUG_CONSTRAINT = 'articles_slug_key';

/** Public reads see published articles whose publication time has come. */
function visible(eb: ArticleScope): Expression<SqlBool> {
  return eb.and([eb('a.status', '=', 'published'), eb('a.published_at', '<=', sql<Date>`now()`)]);
}

function matches(eb: ArticleScope, filter: PublicFilter): Expression<SqlBool> {
  switch (filter.kind) {
    case 'all':
      return eb.lit(true);
    case 'category':
      return eb(
        'a.id',
        'in',
        eb.selectFrom('article_category_links').select('article_id').where('category_id', '=', filter.categoryId),
      );
    case 'tag':
      return eb(
        'a.id',
        'in',
        eb.selectFrom('article_tag_links').select('article_id').where('tag_id', '=', filter.tagId),
      );
    case 'text':
      return sql<SqlBool>`a.search @@ to_tsquery('russian', ${filter.tsquery})`;
  }
}

const viewCount = sql<string>`coalesce(v.view_count, 0)`;

const iso = (date: Date) => date.toISOString();

/** The article columns every read shares, with author names and the view counter. */
function articleReads(db: Db) {
  return db
    .selectFrom('articles as a')
    .leftJoin('article_views as v', 'v.article_id', 'a.id')
    .leftJoin('authors as au', 'au.user_id', 'a.author_id')
    .select([
      'a.id',
      'a.slug',
      'a.title',
      'a.excerpt',
      'a.featured_image',
      'a.reading_time',
      'a.published_at',
      viewCount.as('view_count'),
      'au.first_name as author_first_name',
      'au.last_name as author_last_name',
      'au.username as author_username',
      (eb) =>
        jsonArrayFrom(
          eb
            .selectFrom('article_tag_links as tl')
            .innerJoin('article_tags as t', 't.id', 'tl.tag_id')
            .select(['t.id', 't.name', 't.slug'])
            .whereRef('tl.article_id', '=', 'a.id')
            .orderBy('t.name'),
        ).as('tags'),
      (eb) =>
        jsonArrayFrom(
          eb
            .selectFrom('article_category_links as cl')
            .innerJoin('article_categories as c', 'c.id', 'cl.category_id')
            .select(['c.id', 'c.name', 'c.slug'])
            .whereRef('cl.article_id', '=', 'a.id')
            .orderBy('c.name'),
        ).as('categories'),
    ]);
}

type ArticleRead = Awaited<ReturnType<ReturnType<typeof articleReads>['executeTakeFirstOrThrow']>>;

function toCard(row: ArticleRead): ArticleCard {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    featured_image: row.featured_image,
    reading_time: row.reading_time,
    view_count: Number(row.view_count),
    // Public reads only ever see published articles, which always carry a publication time.
    published_at: iso(row.published_at as Date),
    author_first_name: row.author_first_name,
    author_last_name: row.author_last_name,
    author_username: row.author_username,
    tags: row.tags.map((tag) => tag.name),
    categories: row.categories.map((category) => category.name),
  };
}

const ADMIN_SORT: Record<AdminArticlesQuery['sortField'], Expression<unknown>> = {
  id: sql.ref('a.id'),
  title: sql.ref('a.title'),
  slug: sql.ref('a.slug'),
  status: sql.ref('a.status'),
  view_count: viewCount,
  reading_time: sql.ref('a.reading_time'),
  published_at: sql.ref('a.published_at'),
  created_at: sql.ref('a.created_at'),
  updated_at: sql.ref('a.updated_at'),
};

export function articlesRepository(db: Db) {
  const adminReads = () =>
    articleReads(db).select([
      'a.content',
      'a.meta_title',
      'a.meta_description',
      'a.meta_keywords',
      'a.og_title',
      'a.og_description',
      'a.og_image',
      'a.canonical_url',
      'a.status',
      'a.author_id',
      'a.created_at',
      'a.updated_at',
    ]);
  type AdminRead = Awaited<ReturnType<ReturnType<typeof adminReads>['executeTakeFirstOrThrow']>>;

  const toAdmin = (row: AdminRead): AdminArticle => ({
    ...row,
    view_count: Number(row.view_count),
    published_at: row.published_at ? iso(row.published_at) : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    category_ids: row.categories.map((category) => category.id),
    tag_ids: row.tags.map((tag) => tag.id),
  });

  /** The cards of these articles, in this order. */
  const cardsInOrder = async (ids: number[], on: Db = db): Promise<ArticleCard[]> => {
    if (ids.length === 0) return [];
    const rows = await articleReads(on).where('a.id', 'in', ids).execute();
    const byId = new Map(rows.map((row) => [row.id, toCard(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };

  /** The total of a public list and the cards of one page of it. */
  const pageOf = async (on: Db, filter: PublicFilter, { page, limit }: PageRequest) => {
    const where = (eb: ArticleScope) => eb.and([visible(eb), matches(eb, filter)]);
    const counted = await on
      .selectFrom('articles as a')
      .where(where)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow();
    const total = Number(counted.total);
    if (total === 0 || (page - 1) * limit >= total) return { articles: [], total };

    // Ids first (the index walks straight to the page), then the cards of those 12 only: the
    // tag and category lists are never built for the rows an offset skips.
    let ids = on.selectFrom('articles as a').where(where).select('a.id');
    if (filter.kind === 'text') {
      // Best match first: by title and excerpt, then the newest (a match in the text alone ranks after).
      ids = ids.orderBy(sql`ts_rank(a.search_head, to_tsquery('russian', ${filter.tsquery}))`, 'desc');
    }
    const pageIds = await ids
      .orderBy('a.published_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute();
    return {
      articles: await cardsInOrder(
        pageIds.map((row) => row.id),
        on,
      ),
      total,
    };
  };

  return {
    /** One page of a public list: newest first, or best match first for a text search. */
    async publishedPage(filter: PublicFilter, request: PageRequest) {
      if (filter.kind !== 'text') return pageOf(db, filter, request);
      // The planner does not price unpacking each article's large search vector, so for a word in
      // a few hundred articles it may read them all instead of asking the GIN index. A text search
      // always goes through the index.
      return db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return pageOf(trx, filter, request);
      });
    },

    async publishedBySlug(slug: string): Promise<PublicArticle | undefined> {
      const row = await articleReads(db)
        .select([
          'a.content',
          'a.meta_title',
          'a.meta_description',
          'a.meta_keywords',
          'a.og_title',
          'a.og_description',
          'a.og_image',
          'a.canonical_url',
        ])
        .where('a.slug', '=', slug)
        .where(visible)
        .executeTakeFirst();
      if (!row) return undefined;
      const { content, meta_title, meta_description, meta_keywords, og_title, og_description, og_image } = row;
      return {
        ...toCard(row),
        content,
        meta_title,
        meta_description,
        meta_keywords,
        og_title,
        og_description,
        og_image,
        canonical_url: row.canonical_url,
      };
    },

    /** Published articles sharing the most categories and tags with this one, then the newest. */
    async related(articleId: number, limit: number): Promise<ArticleCard[]> {
      const shared = db
        .selectFrom('article_category_links as l1')
        .innerJoin('article_category_links as l2', 'l2.category_id', 'l1.category_id')
        .where('l1.article_id', '=', articleId)
        .select('l2.article_id')
        .unionAll(
          db
            .selectFrom('article_tag_links as t1')
            .innerJoin('article_tag_links as t2', 't2.tag_id', 't1.tag_id')
            .where('t1.article_id', '=', articleId)
            .select('t2.article_id'),
        );
      const ranked = await db
        .selectFrom(shared.as('s'))
        .innerJoin('articles as a', 'a.id', 's.article_id')
        .where(visible)
        .where('a.id', '!=', articleId)
        .groupBy(['a.id', 'a.published_at'])
        .select('a.id')
        .orderBy(sql`count(*)`, 'desc')
        .orderBy('a.published_at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(limit)
        .execute();
      return cardsInOrder(ranked.map((row) => row.id));
    },

    /**
     * Adds a batch of views (article id → views) once: a batch whose id is already recorded was
     * added by an earlier attempt whose answer got lost, and is skipped. Run it in a transaction.
     */
    async addViews(batchId: string, counts: ReadonlyMap<number, number>): Promise<void> {
      const recorded = await db
        .insertInto('view_batches')
        .values({ id: batchId })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!recorded || counts.size === 0) return;
      // An article deleted since its views were counted has nothing left to count them on.
      await sql`
        insert into article_views (article_id, view_count)
        select v.article_id, v.views from unnest(${[...counts.keys()]}::int[], ${[...counts.values()]}::bigint[]) as v(article_id, views)
        where exists (select 1 from articles a where a.id = v.article_id)
        on conflict (article_id) do update set view_count = article_views.view_count + excluded.view_count
      `.execute(db);
      await db
        .deleteFrom('view_batches')
        .where('applied_at', '<', sql<Date>`now() - interval '7 days'`)
        .execute();
    },

    /** When the next scheduled article becomes public (a public list changes then without any write). */
    async nextPublication(): Promise<Date | undefined> {
      const row = await db
        .selectFrom('articles')
        .select((eb) => eb.fn.min('published_at').as('next'))
        .where('status', '=', 'published')
        .where('published_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row?.next ?? undefined;
    },

    async seoSource(slug: string): Promise<ArticleSeoSource | undefined> {
      const row = await db
        .selectFrom('articles as a')
        .select([
          'a.slug',
          'a.title',
          'a.excerpt',
          'a.plain_text',
          'a.meta_title',
          'a.meta_description',
          'a.meta_keywords',
          'a.og_title',
          'a.og_description',
          'a.og_image',
          'a.featured_image',
          'a.canonical_url',
          'a.published_at',
          'a.updated_at',
        ])
        .where('a.slug', '=', slug)
        .where(visible)
        .executeTakeFirst();
      return row ? { ...row, published_at: row.published_at as Date } : undefined;
    },

    async sitemapEntries(): Promise<{ slug: string; updated_at: string }[]> {
      const rows = await db
        .selectFrom('articles as a')
        .select(['a.slug', 'a.updated_at'])
        .where(visible)
        .orderBy('a.published_at', 'desc')
        .orderBy('a.id', 'desc')
        .execute();
      return rows.map((row) => ({ slug: row.slug, updated_at: iso(row.updated_at) }));
    },

    async adminPage(query: AdminArticlesQuery): Promise<{ articles: AdminArticle[]; total: number }> {
      const { rows, total } = await listPage(
        adminReads(),
        { by: ADMIN_SORT[query.sortField], order: query.sortOrder, id: 'a.id' },
        query,
        db.selectFrom('articles'),
      );
      return { articles: rows.map(toAdmin), total };
    },

    async adminById(id: number): Promise<AdminArticle | undefined> {
      const row = await adminReads().where('a.id', '=', id).executeTakeFirst();
      return row ? toAdmin(row) : undefined;
    },

    async stored(id: number): Promise<StoredArticle | undefined> {
      return db.selectFrom('articles').select(['id', 'status', 'published_at']).where('id', '=', id).executeTakeFirst();
    },

    async insert(values: ArticleValues, authorId: number | null): Promise<number> {
      const row = await db
        .insertInto('articles')
        .values({ ...values, author_id: authorId })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async update(id: number, values: ArticleValues): Promise<void> {
      await db
        .updateTable('articles')
        .set({ ...values, updated_at: sql`now()` })
        .where('id', '=', id)
        .execute();
    },

    /** Replaces the article's categories and tags with these. */
    async setTaxonomies(articleId: number, categoryIds: readonly number[], tagIds: readonly number[]): Promise<void> {
      await db.deleteFrom('article_category_links').where('article_id', '=', articleId).execute();
      await db.deleteFrom('article_tag_links').where('article_id', '=', articleId).execute();
      const categories = [...new Set(categoryIds)];
      const tags = [...new Set(tagIds)];
      if (categories.length > 0) {
        await db
          .insertInto('article_category_links')
          .values(categories.map((category_id) => ({ article_id: articleId, category_id })))
          .execute();
      }
      if (tags.length > 0) {
        await db
          .insertInto('article_tag_links')
          .values(tags.map((tag_id) => ({ article_id: articleId, tag_id })))
          .execute();
      }
    },

    async delete(id: number): Promise<boolean> {
      const result = await db.deleteFrom('articles').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async anyExists(): Promise<boolean> {
      const row = await db.selectFrom('articles').select('id').limit(1).executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type ArticlesRepository = ReturnType<typeof articlesRepository>;
