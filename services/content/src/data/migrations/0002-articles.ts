import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Articles with a stored russian full-text vector (title A, excerpt B, body text C), their links
 * to categories and tags (removed with either side), and their view counters.
 */
export const articlesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('articles')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('slug', 'text', (col) => col.notNull().unique())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('excerpt', 'text')
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('plain_text', 'text', (col) => col.notNull().defaultTo(''))
      .addColumn('meta_title', 'text')
      .addColumn('meta_description', 'text')
      .addColumn('meta_keywords', 'text')
      .addColumn('og_title', 'text')
      .addColumn('og_description', 'text')
      .addColumn('og_image', 'text')
      .addColumn('canonical_url', 'text')
      .addColumn('status', 'text', (col) =>
        col
          .notNull()
          .defaultTo('draft')
          .check(sql`status in ('draft', 'published', 'archived')`),
      )
      .addColumn('featured_image', 'text')
      .addColumn('reading_time', 'integer', (col) => col.notNull().check(sql`reading_time >= 1`))
      .addColumn('published_at', 'timestamptz')
      .addColumn('author_id', 'integer')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('search', sql`tsvector`, (col) =>
        col
          .generatedAlwaysAs(
            sql`setweight(to_tsvector('russian', title), 'A') || setweight(to_tsvector('russian', coalesce(excerpt, '')), 'B') || setweight(to_tsvector('russian', plain_text), 'C')`,
          )
          .stored(),
      )
      .execute();
    await sql`create index articles_search on articles using gin (search)`.execute(db);
    // The public lists: published, newest first.
    await sql`create index articles_published on articles (published_at desc, id desc) where status = 'published'`.execute(
      db,
    );

    await db.schema
      .createTable('article_category_links')
      .addColumn('article_id', 'integer', (col) => col.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('category_id', 'integer', (col) =>
        col.notNull().references('article_categories.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('article_category_links_pkey', ['article_id', 'category_id'])
      .execute();
    await db.schema
      .createIndex('article_category_links_category')
      .on('article_category_links')
      .columns(['category_id', 'article_id'])
      .execute();

    await db.schema
      .createTable('article_tag_links')
      .addColumn('article_id', 'integer', (col) => col.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('tag_id', 'integer', (col) => col.notNull().references('article_tags.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('article_tag_links_pkey', ['article_id', 'tag_id'])
      .execute();
    await db.schema
      .createIndex('article_tag_links_tag')
      .on('article_tag_links')
      .columns(['tag_id', 'article_id'])
      .execute();

    await db.schema
      .createTable('article_views')
      .addColumn('article_id', 'integer', (col) => col.primaryKey().references('articles.id').onDelete('cascade'))
      .addColumn('view_count', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
  },
};
