import type { PGlite } from '@electric-sql/pglite';
import { PostgresDialect, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from 'kysely';

/**
 * PGlite is one session, so the "pool" hands out that session to one borrower at a time;
 * a transaction therefore never interleaves with another caller's statements.
 */
export function pgliteDialect(pglite: PGlite): PostgresDialect {
  let queue: Promise<void> = Promise.resolve();

  // Streaming cursors are not offered, so only the (sql, parameters) form of query exists.
  const query = async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
    const result = await pglite.query<R>(sql, parameters as unknown[]);
    return { command: commandOf(sql), rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
  };
  const client = { query: query as PostgresPoolClient['query'], release() {} };

  const pool: PostgresPool = {
    connect() {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const previous = queue;
      queue = previous.then(() => turn);
      return previous.then(() => ({ ...client, release }));
    },
    async end() {
      await queue;
    },
  };
  return new PostgresDialect({ pool });
}

function commandOf(sql: string): PostgresQueryResult<unknown>['command'] {
  const word = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge|select)\b/i.exec(sql)?.[1]?.toUpperCase();
  return (word ?? 'SELECT') as PostgresQueryResult<unknown>['command'];
}
