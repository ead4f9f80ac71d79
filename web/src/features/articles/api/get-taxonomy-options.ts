import { type SelectOption } from '@gpt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** GET /api/article_categories/select */
export async function getCategoryOptions(signal?: AbortSignal): Promise<SelectOption[]> {
  return (await callRoute('getArticleCategoriesSelect', { signal })).categories;
}

/** GET /api/article_tags/select: the most used first. */
export async function getTagOptions(signal?: AbortSignal): Promise<SelectOption[]> {
  return (await callRoute('getArticleTagsSelect', { signal })).tags;
}

const OPTIONS_STALE_MS = 5 * 60_000;

export function useCategoryOptions() {
  return useQuery(
    queryOptions({
      queryKey: ['articles', 'categories'],
      queryFn: ({ signal }) => getCategoryOptions(signal),
      staleTime: OPTIONS_STALE_MS,
    }),
  );
}

export function useTagOptions() {
  return useQuery(
    queryOptions({
      queryKey: ['articles', 'tags'],
      queryFn: ({ signal }) => getTagOptions(signal),
      staleTime: OPTIONS_STALE_MS,
    }),
  );
}
