import type { Migration } from 'kysely';
import { projectionsMigration } from './0001-projections';

/** Versioned migrations of the metrics database, applied in name order at start (after the bus tables). */
export const migrations: Record<string, Migration> = {
  '0001_projections': projectionsMigration,
};
