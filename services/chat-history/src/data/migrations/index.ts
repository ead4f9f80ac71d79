import { auditLogMigration, idempotencyMigration } from '@gpt/kit';
import type { Migration } from 'kysely';
import { chatHistoryMigration } from './0001-chat-history';
import { textSearchMigration } from './0002-text-search';
import { messageCountsMigration } from './0003-message-counts';
import { costSortIndexesMigration } from './0004-cost-sort-indexes';
import { holdsAndImagesMigration } from './0005-holds-and-images';
import { settingVersionsMigration } from './0006-setting-versions';
import { modesAndVoiceMigration } from './0010-modes-and-voice';
import { messageDoorMigration } from './0060-message-door';

/** Versioned migrations of the chat-history database, applied in name order at start (after the bus tables). */
export const migrations: Record<string, Migration> = {
  '0001_chat_history': chatHistoryMigration,
  '0002_text_search': textSearchMigration,
  '0003_message_counts': messageCountsMigration,
  '0004_cost_sort_indexes': costSortIndexesMigration,
  '0005_holds_and_images': holdsAndImagesMigration,
  '0006_setting_versions': settingVersionsMigration,
  '0010_modes_and_voice': modesAndVoiceMigration,
  '0040_idempotent_requests': idempotencyMigration,
  '0041_audit_log': auditLogMigration,
  '0060_message_door': messageDoorMigration,
};
