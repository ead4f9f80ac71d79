import type { Migration } from 'kysely';
import { botMigration } from './0001-bot';

/** Versioned migrations of the bot database, applied in name order at start (after the bus tables). */
export const migrations: Record<string, Migration> = {
  '0001_bot': botMigration,
};
