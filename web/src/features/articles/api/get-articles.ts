import { ArticlesListResponse } from '@gpt/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import type { ArticlesListState } from '../list-state';

/** Public articles page size (docs/product.md, Limits), search included. */
export const ARTICLES_PAGE_SIZE = 12;

/**
 * One page of the public list: a search (GET /api/articles/search), a category or a tag
 * (GET /api/articles/category|tag/{slug}), or all (GET /api/articles).
 */
export function getArticles(state: ArticlesListState, signal?: AbortSignal): Promise<ArticlesListResponse> {
  const query = { page: state.page, limit: ARTICLES_PAGE_SIZE };
  if (state.q) return callRoute('getArticlesSearch', { query: { ...query, q: state.q }, signal });
  if (state.category) {
    return callRoute('getArticlesCategoryBySlug', { params: { slug: state.category }, query, signal });
  }
  if (state.tag) return callRoute('getArticlesTagBySlug', { params: { slug: state.tag }, query, signal });
  return callRoute('getArticles', { query, signal });
}

export const articlesQueryOptions = (state: ArticlesListState) =>
  queryOptions({
    queryKey: ['articles', 'list', state],
    queryFn: ({ signal }) => getArticles(state, signal),
    placeholderData: keepPreviousData,
  });

export function useArticles(state: ArticlesListState) {
  return useQuery(articlesQueryOptions(state));
}
