import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Search at scale: a small vector of title and excerpt to rank by (it stays in the row, so ranking
 * thousands of matches never unpacks the vector of the whole text), and the vocabulary of every
 * word ever written in an article (lowercase), where the search completes the word being typed and
 * finds parts of words before asking the full-text index for them.
 */
export const searchRankingAndWordsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('articles')
      .addColumn('search_head', sql`tsvector`, (col) =>
        col
          .generatedAlwaysAs(
            sql`setweight(to_tsvector('russian', title), 'A') || setweight(to_tsvector('russian', coalesce(excerpt, '')), 'B')`,
          )
          .stored(),
      )
      .execute();

    await db.schema
      .createTable('search_words')
      .addColumn('word', 'text', (col) => col.primaryKey())
      .execute();
    // LIKE 'prefix%' walks this index whatever the database's collation.
    await sql`create index search_words_prefix on search_words (word text_pattern_ops)`.execute(db);
    // The words of the articles written before this migration (the rule of vocabularyOf in
    // domain/search-terms.ts, written out here: a migration must keep its meaning when the code moves on).
    const articles = await sql<{ text: string }>`
      select concat_ws(' ', title, excerpt, plain_text) as text from articles`.execute(db);
    const words = new Set<string>();
    for (const { text } of articles.rows) {
      for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
        if (word.length >= 2 && word.length <= 40) words.add(word);
      }
    }
    if (words.size > 0) {
      await sql`insert into search_words (word) select unnest(${[...words]}::text[]) on conflict do nothing`.execute(
        db,
      );
    }
  },
};
