import type { Migration } from 'kysely';
import { projectionsMigration } from './0001-projections';
import { newUsersStillPresentMigration } from './0002-new-users-still-present';

/** Versioned migrations of the metrics database, applied in name order at start (after the bus tables). */
export const migrations: Record<string, Migration> = {
  '0001_projections': projectionsMigration,
  '0002_new_users_still_present': newUsersStillPresentMigration,
};
