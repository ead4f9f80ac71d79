import {
  AdminCategoriesResponse,
  AdminTagsResponse,
  type ArticleCategory,
  type ArticleTag,
  type CategoryInput,
  CategoryResponse,
  SuccessResponse,
  type TagInput,
  TagResponse,
} from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
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

/** The routes of each kind (their ids in the contracts' route list). */
const ROUTES = {
  category: {
    list: 'getAdminArticleCategories',
    create: 'postAdminArticleCategories',
    update: 'putAdminArticleCategoriesById',
    remove: 'deleteAdminArticleCategoriesById',
  },
  tag: {
    list: 'getAdminArticleTags',
    create: 'postAdminArticleTags',
    update: 'putAdminArticleTagsById',
    remove: 'deleteAdminArticleTagsById',
  },
} as const;

/** The answer of a POST or PUT: `{ category }` or `{ tag }`. */
const SAVED = { category: CategoryResponse, tag: TagResponse } as const;

export const taxonomiesKey = (kind: TaxonomyKind) => ['admin-articles', 'taxonomies', kind] as const;

/** GET /api/admin/article_categories | /api/admin/article_tags: all of them, by name. */
export async function getTaxonomies<K extends TaxonomyKind>(kind: K): Promise<Taxonomy<K>[]> {
  if (kind === 'category') {
    return (await api.get(apiPath(ROUTES.category.list), AdminCategoriesResponse)).categories as Taxonomy<K>[];
  }
  return (await api.get(apiPath(ROUTES.tag.list), AdminTagsResponse)).tags as Taxonomy<K>[];
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
  const schema: (typeof SAVED)[TaxonomyKind] = SAVED[kind];
  const answer =
    id === undefined
      ? await api.post(apiPath(ROUTES[kind].create), schema, body)
      : await api.put(apiPath(ROUTES[kind].update, { id }), schema, body);
  return ('category' in answer ? answer.category : answer.tag) as Taxonomy<K>;
}

/** DELETE of a category or tag; the articles lose it. */
export async function deleteTaxonomy(kind: TaxonomyKind, id: number): Promise<void> {
  await api.delete(apiPath(ROUTES[kind].remove, { id }), SuccessResponse);
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
