import type { Kysely } from 'kysely';
import type { AuthorsTable, ContentDatabase } from './schema';

export type AuthorSnapshot = AuthorsTable;

export function authorsRepository(db: Kysely<ContentDatabase>) {
  return {
    /**
     * Stores the names unless a newer version is already there (events may arrive out of order).
     * A deleted user stays as a row without names, so a late older update cannot bring them back.
     */
    async upsert(author: AuthorSnapshot): Promise<void> {
      await db
        .insertInto('authors')
        .values(author)
        .onConflict((oc) =>
          oc
            .column('user_id')
            .doUpdateSet((eb) => ({
              first_name: eb.ref('excluded.first_name'),
              last_name: eb.ref('excluded.last_name'),
              username: eb.ref('excluded.username'),
              version: eb.ref('excluded.version'),
            }))
            .where('authors.version', '<', (eb) => eb.ref('excluded.version')),
        )
        .execute();
    },
  };
}
