import type { Kysely } from 'kysely';
import type { ContentDatabase } from './schema';

/** What content keeps of a user: the author names, and where an answer to their support request goes. */
export interface AuthorSnapshot {
  user_id: number;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  email: string | null;
  telegram_id: number | null;
  version: number;
}

export function authorsRepository(db: Kysely<ContentDatabase>) {
  return {
    /**
     * Stores the snapshot unless a newer version is already there (events may arrive out of order).
     * A deleted user stays as a row without names or addresses, so a late older update cannot bring them back.
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
              email: eb.ref('excluded.email'),
              telegram_id: eb.ref('excluded.telegram_id'),
              version: eb.ref('excluded.version'),
            }))
            .where('authors.version', '<', (eb) => eb.ref('excluded.version')),
        )
        .execute();
    },
  };
}
