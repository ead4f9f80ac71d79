import type { ArticleStatus } from '@gpt/contracts';

/** Article statuses with their docs/product.md, States names; new articles are drafts. */
export const ARTICLE_STATUSES: readonly { value: ArticleStatus; label: string }[] = [
  { value: 'draft', label: 'Черновик' },
  { value: 'published', label: 'Опубликовано' },
  { value: 'archived', label: 'Архив' },
];

export const articleStatusBadge = {
  labels: { draft: 'Черновик', published: 'Опубликовано', archived: 'Архив' },
  variants: { draft: 'secondary', published: 'success', archived: 'dark' },
} as const;
