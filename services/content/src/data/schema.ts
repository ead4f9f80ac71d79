import type { BusTables, MediaTables } from '@gpt/kit';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface ArticlesTable {
  id: Generated<number>;
  slug: string;
  title: string;
  excerpt: string | null;
  /** Sanitized HTML. */
  content: string;
  /** The text of `content` without markup: feeds the search vector and the partial-word fallback. */
  plain_text: string;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  og_title: string | null;
  og_description: string | null;
  og_image: string | null;
  canonical_url: string | null;
  status: 'draft' | 'published' | 'archived';
  featured_image: string | null;
  reading_time: number;
  published_at: NullableTimestamp;
  /** The admin who created it (auth's user id). */
  author_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Generated from title, excerpt and plain_text with the russian configuration (matching). */
  search: ColumnType<string, never, never>;
  /** Generated from title and excerpt (ranking). */
  search_head: ColumnType<string, never, never>;
}

/** View counters live apart from the article row, so a view never rewrites the article (nor its search vector). */
export interface ArticleViewsTable {
  article_id: number;
  /** bigint, as a string. */
  view_count: ColumnType<string, string | number, string | number>;
}

/** The view batches already added to article_views (see migration 0006). */
export interface ViewBatchesTable {
  id: string;
  applied_at: ColumnType<Date, never, never>;
}

/** The words of every article, lowercase (see migration 0005). */
export interface SearchWordsTable {
  word: string;
}

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  slug: string;
  description: string | null;
  meta_title: string | null;
  meta_description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TagsTable {
  id: Generated<number>;
  name: string;
  slug: string;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ArticleCategoryLinksTable {
  article_id: number;
  category_id: number;
}

export interface ArticleTagLinksTable {
  article_id: number;
  tag_id: number;
}

/** Contact-form messages: the admin's «Обращения». */
export interface FeedbackTable {
  id: Generated<number>;
  telegram: string;
  subject: string;
  message: string;
  /** An e-mail to answer to, given in the form. */
  email: string | null;
  /** The signed-in user who sent it. */
  user_id: number | null;
  status: Generated<'new' | 'done'>;
  answer: string | null;
  answered_via: 'telegram' | 'email' | null;
  answered_at: Date | null;
  answered_by: number | null;
  created_at: Timestamp;
}

/**
 * Projection of auth's user events: the names shown as an article's author, and the e-mail and linked
 * Telegram id that decide where an answer to a support request goes.
 */
export interface AuthorsTable {
  user_id: number;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  email: string | null;
  /** bigint: read as a string. */
  telegram_id: ColumnType<string | null, string | number | null, string | number | null>;
  version: number;
}

/** The tables of the content database, as Kysely sees them. */
export interface ContentDatabase extends BusTables, MediaTables {
  articles: ArticlesTable;
  article_views: ArticleViewsTable;
  view_batches: ViewBatchesTable;
  search_words: SearchWordsTable;
  article_categories: CategoriesTable;
  article_tags: TagsTable;
  article_category_links: ArticleCategoryLinksTable;
  article_tag_links: ArticleTagLinksTable;
  feedback: FeedbackTable;
  authors: AuthorsTable;
}
