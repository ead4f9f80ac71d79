import type { PGlite } from '@electric-sql/pglite';
import { PostgresDialect, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from 'kysely';

/**
 * The one session of a PGlite instance, shared by every service of the process. Whoever holds it
 * holds it alone (a transaction never interleaves with another caller's statements), and its
 * search_path is that holder's schema.
 */
export interface PgliteSession {
  readonly pglite: PGlite;
  /** Resolves when the current holder releases the session. */
  queue: Promise<void>;
  /** The schema the session's search_path names now. */
  searchPath: string | undefined;
}

export const pgliteSession = (pglite: PGlite): PgliteSession => ({
  pglite,
  queue: Promise.resolve(),
  searchPath: undefined,
});

/**
 * Waits for the session, points its search_path at `schema` (first, then public) and returns the
 * release that hands it to the next in line.
 */
export async function holdSession(session: PgliteSession, schema: string): Promise<() => void> {
  let release!: () => void;
  const turn = new Promise<void>((resolve) => (release = resolve));
  const previous = session.queue;
  session.queue = previous.then(() => turn);
  await previous;
  if (session.searchPath !== schema) {
    try {
      await session.pglite.exec(`set search_path to "${schema}", public`);
    } catch (err) {
      release();
      throw err;
    }
    session.searchPath = schema;
  }
  return release;
}

/** A Kysely dialect over the shared session whose unqualified names are those of `schema`. */
export function pgliteDialect(session: PgliteSession, schema: string): PostgresDialect {
  // Streaming cursors are not offered, so only the (sql, parameters) form of query exists.
  const query = async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
    const result = await session.pglite.query<R>(sql, parameters as unknown[]);
    return { command: commandOf(sql), rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
  };
  const client = { query: query as PostgresPoolClient['query'] };

  const pool: PostgresPool = {
    async connect() {
      return { ...client, release: await holdSession(session, schema) };
    },
    async end() {
      await session.queue;
    },
  };
  return new PostgresDialect({ pool });
}

function commandOf(sql: string): PostgresQueryResult<unknown>['command'] {
  const word = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge|select)\b/i.exec(sql)?.[1]?.toUpperCase();
  return (word ?? 'SELECT') as PostgresQueryResult<unknown>['command'];
}
