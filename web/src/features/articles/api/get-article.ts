import { ArticleDetailResponse } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** GET /api/articles/{slug}: the article (its view is counted) and related articles. */
export function getArticle(slug: string, signal?: AbortSignal): Promise<ArticleDetailResponse> {
  return callRoute('getArticlesBySlug', { params: { slug }, signal });
}

export const articleQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: ['articles', 'detail', slug],
    queryFn: ({ signal }) => getArticle(slug, signal),
    // A reload of the page would otherwise ask (and count) again right away.
    staleTime: 5 * 60_000,
  });

export function useArticle(slug: string) {
  return useQuery(articleQueryOptions(slug));
}
