import { ArticleDetailResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET /api/articles/{slug}: the article (its view is counted) and related articles. */
export function getArticle(slug: string, signal?: AbortSignal): Promise<ArticleDetailResponse> {
  return api.get(apiPath('getArticlesBySlug', { slug }), ArticleDetailResponse, { signal });
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
