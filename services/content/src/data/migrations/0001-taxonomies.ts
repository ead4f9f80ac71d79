import { sql, type Kysely, type Migration } from 'kysely';

/** Article categories and tags: names unique regardless of case, slugs unique. */
export const taxonomiesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('article_categories')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('slug', 'text', (col) => col.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('meta_title', 'text')
      .addColumn('meta_description', 'text')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`create unique index article_categories_name_key on article_categories (lower(name))`.execute(db);

    await db.schema
      .createTable('article_tags')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('slug', 'text', (col) => col.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`create unique index article_tags_name_key on article_tags (lower(name))`.execute(db);
  },
};
