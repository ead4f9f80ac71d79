import { idempotencyMigration } from '@gpt/kit';
import type { Migration } from 'kysely';
import { botMigration } from './0001-bot';
import { modesVoiceInstructionsMigration } from './0020-modes-voice-instructions';
import { generationsMigration } from './0040-generations';
import { blockedReportsMigration } from './0041-blocked-reports';
import { awaitingMigration } from './0042-awaiting';
import { conversationsMigration } from './0060-conversations';
import { broadcastsMigration } from './0070-broadcasts';

/** Versioned migrations of the bot database, applied in name order at start (after the bus tables). */
export const migrations: Record<string, Migration> = {
  '0001_bot': botMigration,
  '0020_modes_voice_instructions': modesVoiceInstructionsMigration,
  '0040_generations': generationsMigration,
  '0041_blocked_reports': blockedReportsMigration,
  '0042_awaiting': awaitingMigration,
  '0060_conversations': conversationsMigration,
  '0070_broadcasts': broadcastsMigration,
  '0071_idempotent_requests': idempotencyMigration,
};
