import { routeHandlers } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { manageTaxonomies } from '../domain/manage-taxonomies';

/** Category and tag management of the admin article screen (docs/product.md, Calls). */
export function adminTaxonomiesRoutes(deps: ContentDeps) {
  const categories = manageTaxonomies(deps, 'category');
  const tags = manageTaxonomies(deps, 'tag');
  const removed = async (remove: Promise<void>) => {
    await remove;
    return { success: true } as const;
  };
  return routeHandlers('content', {
    getAdminArticleCategories: async () => ({ success: true, categories: await categories.list() }),
    postAdminArticleCategories: async ({ body }) => ({ success: true, category: await categories.create(body) }),
    putAdminArticleCategoriesById: async ({ params, body }) => ({
      success: true,
      category: await categories.update(params.id, body),
    }),
    deleteAdminArticleCategoriesById: ({ params }) => removed(categories.remove(params.id)),
    getAdminArticleTags: async () => ({ success: true, tags: await tags.list() }),
    postAdminArticleTags: async ({ body }) => ({ success: true, tag: await tags.create(body) }),
    putAdminArticleTagsById: async ({ params, body }) => ({ success: true, tag: await tags.update(params.id, body) }),
    deleteAdminArticleTagsById: ({ params }) => removed(tags.remove(params.id)),
  });
}
