import type { Kysely } from 'kysely';
import type { ContentDatabase } from './schema';

/** The vocabulary the partial-word search looks fragments up in. */
export function searchWordsRepository(db: Kysely<ContentDatabase>) {
  return {
    /** Remembers these words (already lowercase); words never seen before are added. */
    async add(words: readonly string[]): Promise<void> {
      if (words.length === 0) return;
      await db
        .insertInto('search_words')
        .values(words.map((word) => ({ word })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    /** Up to `limit` known words matching a LIKE pattern (`нейро%`, `%ейросет%`), shortest first. */
    async matching(pattern: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('search_words')
        .select('word')
        .where('word', 'like', pattern)
        .orderBy((eb) => eb.fn('length', ['word']))
        .orderBy('word')
        .limit(limit)
        .execute();
      return rows.map((row) => row.word);
    },
  };
}
