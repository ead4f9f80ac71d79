import type { Migration } from 'kysely';
import { botMigration } from './0001-bot';
import { generationsMigration } from './0040-generations';

/** Versioned migrations of the bot database, applied in name order at start (after the bus tables). */
export const migrations: Record<string, Migration> = {
  '0001_bot': botMigration,
  '0040_generations': generationsMigration,
};
