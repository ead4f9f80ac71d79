import { type ArticleCategory, type ArticleTag, type CategoryInput, type TagInput } from '@gpt/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { adminArticlesKey } from './get-admin-articles';

/**
 * Categories and tags are managed alike (docs/product.md, Calls): GET, POST, PUT and DELETE under
 * /api/admin/article_categories and /api/admin/article_tags. One set of calls serves both.
 */
export type TaxonomyKind = 'category' | 'tag';
export type Taxonomy<K extends TaxonomyKind> = K extends 'category' ? ArticleCategory : ArticleTag;
export type TaxonomyBody<K extends TaxonomyKind> = K extends 'category' ? CategoryInput : TagInput;

export const taxonomiesKey = (kind: TaxonomyKind) => ['admin-articles', 'taxonomies', kind] as const;

/** GET /api/admin/article_categories | /api/admin/article_tags: all of them, by name. */
export async function getTaxonomies<K extends TaxonomyKind>(kind: K): Promise<Taxonomy<K>[]> {
  if (kind === 'category') return (await callRoute('getAdminArticleCategories')).categories as Taxonomy<K>[];
  return (await callRoute('getAdminArticleTags')).tags as Taxonomy<K>[];
}

export function useTaxonomies<K extends TaxonomyKind>(kind: K) {
  return useQuery(
    queryOptions({
      queryKey: taxonomiesKey(kind),
      queryFn: () => getTaxonomies(kind),
    }),
  );
}

/** POST (no id) or PUT (id) of a category or tag. */
export async function saveTaxonomy<K extends TaxonomyKind>(
  kind: K,
  { id, ...body }: TaxonomyBody<K> & { id?: number },
): Promise<Taxonomy<K>> {
  if (kind === 'category') {
    const input = body as CategoryInput;
    const { category } =
      id === undefined
        ? await callRoute('postAdminArticleCategories', { body: input })
        : await callRoute('putAdminArticleCategoriesById', { params: { id }, body: input });
    return category as Taxonomy<K>;
  }
  const input = body as TagInput;
  const { tag } =
    id === undefined
      ? await callRoute('postAdminArticleTags', { body: input })
      : await callRoute('putAdminArticleTagsById', { params: { id }, body: input });
  return tag as Taxonomy<K>;
}

/** DELETE of a category or tag; the articles lose it. */
export async function deleteTaxonomy(kind: TaxonomyKind, id: number): Promise<void> {
  const params = { id };
  await (kind === 'category'
    ? callRoute('deleteAdminArticleCategoriesById', { params })
    : callRoute('deleteAdminArticleTagsById', { params }));
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
  return useMutation({
    mutationFn: (id: number) => deleteTaxonomy(kind, id),
    onSuccess: invalidate,
  });
}
