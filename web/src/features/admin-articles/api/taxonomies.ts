import type {
  AdminCategoriesResponse,
  AdminTagsResponse,
  ArticleCategory,
  ArticleTag,
  CategoryInput,
  CategoryResponse,
  TagInput,
  TagResponse,
} from '@gpt/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminArticlesKey } from './get-admin-articles';

/**
 * Categories and tags are managed alike (docs/product.md, Calls): GET, POST, PUT and DELETE under
 * /api/admin/article_categories and /api/admin/article_tags. One set of calls serves both.
 */
export type TaxonomyKind = 'category' | 'tag';
export type Taxonomy<K extends TaxonomyKind> = K extends 'category' ? ArticleCategory : ArticleTag;
export type TaxonomyBody<K extends TaxonomyKind> = K extends 'category' ? CategoryInput : TagInput;

const PATHS: Record<TaxonomyKind, string> = {
  category: '/api/admin/article_categories',
  tag: '/api/admin/article_tags',
};

export const taxonomiesKey = (kind: TaxonomyKind) => ['admin-articles', 'taxonomies', kind] as const;

/** GET /api/admin/article_categories | /api/admin/article_tags: all of them, by name. */
export async function getTaxonomies<K extends TaxonomyKind>(kind: K): Promise<Taxonomy<K>[]> {
  if (kind === 'category') {
    return (await api.get<AdminCategoriesResponse>(PATHS.category)).categories as Taxonomy<K>[];
  }
  return (await api.get<AdminTagsResponse>(PATHS.tag)).tags as Taxonomy<K>[];
}

export function useTaxonomies<K extends TaxonomyKind>(kind: K) {
  return useQuery(queryOptions({ queryKey: taxonomiesKey(kind), queryFn: () => getTaxonomies(kind) }));
}

/** POST (no id) or PUT (id) of a category or tag. */
export async function saveTaxonomy<K extends TaxonomyKind>(
  kind: K,
  { id, ...body }: TaxonomyBody<K> & { id?: number },
): Promise<Taxonomy<K>> {
  const answer =
    id === undefined
      ? await api.post<CategoryResponse | TagResponse>(PATHS[kind], body)
      : await api.put<CategoryResponse | TagResponse>(`${PATHS[kind]}/${id}`, body);
  return ('category' in answer ? answer.category : answer.tag) as Taxonomy<K>;
}

/** DELETE of a category or tag; the articles lose it. */
export async function deleteTaxonomy(kind: TaxonomyKind, id: number): Promise<void> {
  await api.delete(`${PATHS[kind]}/${id}`);
}

/** After a change the list and the articles (which show names) reload. */
function useInvalidate(kind: TaxonomyKind) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: taxonomiesKey(kind) }),
      queryClient.invalidateQueries({ queryKey: adminArticlesKey }),
      queryClient.invalidateQueries({ queryKey: ['articles'] }),
    ]);
  };
}

export function useSaveTaxonomy<K extends TaxonomyKind>(kind: K) {
  const invalidate = useInvalidate(kind);
  return useMutation({
    mutationFn: (body: TaxonomyBody<K> & { id?: number }) => saveTaxonomy(kind, body),
    onSuccess: invalidate,
  });
}

export function useDeleteTaxonomy(kind: TaxonomyKind) {
  const invalidate = useInvalidate(kind);
  return useMutation({ mutationFn: (id: number) => deleteTaxonomy(kind, id), onSuccess: invalidate });
}
