import type { Migration } from 'kysely';
import { taxonomiesMigration } from './0001-taxonomies';
import { articlesMigration } from './0002-articles';
import { feedbackMigration } from './0003-feedback';
import { authorsMigration } from './0004-authors';
import { searchRankingAndWordsMigration } from './0005-search-ranking-and-words';
import { viewBatchesMigration } from './0006-view-batches';
import { articleMediaMigration } from './0007-article-media';
import { supportRequestsMigration } from './0008-support-requests';

/** Versioned migrations of the content database, applied in name order at start (after the bus tables). */
export const migrations: Record<string, Migration> = {
  '0001_taxonomies': taxonomiesMigration,
  '0002_articles': articlesMigration,
  '0003_feedback': feedbackMigration,
  '0004_authors': authorsMigration,
  '0005_search_ranking_and_words': searchRankingAndWordsMigration,
  '0006_view_batches': viewBatchesMigration,
  '0007_article_media': articleMediaMigration,
  '0008_support_requests': supportRequestsMigration,
};
