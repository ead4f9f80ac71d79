import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Logger } from '../logger';

/**
 * Runs the migrations not applied yet. `schema`: where the bookkeeping tables live when several
 * services share one database (PGlite); without it, the first schema of the search_path.
 */
export async function migrate<DB>(
  db: Kysely<DB>,
  migrations: Record<string, Migration>,
  logger: Logger,
  schema?: string,
): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema: schema }).migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === 'Success') logger.info({ migration: result.migrationName }, 'migration applied');
    if (result.status === 'Error') logger.error({ migration: result.migrationName }, 'migration failed');
  }
  if (error) throw error;
}
