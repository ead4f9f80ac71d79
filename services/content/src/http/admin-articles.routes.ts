import { routeHandlers } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { manageArticles } from '../domain/manage-articles';

/** The admin article calls of docs/product.md, Calls; the admin role is checked here too, not only at the gateway. */
export function adminArticlesRoutes(deps: ContentDeps) {
  const articles = manageArticles(deps);
  return routeHandlers('content', {
    getAdminArticles: ({ query }) => articles.list(query),
    postAdminArticles: async ({ body, claims }) => ({
      success: true,
      article: await articles.create(body, Number(claims.sub) || null),
    }),
    getAdminArticlesById: async ({ params }) => ({ success: true, article: await articles.get(params.id) }),
    putAdminArticlesById: async ({ params, body }) => ({
      success: true,
      article: await articles.update(params.id, body),
    }),
    deleteAdminArticlesById: async ({ params }) => {
      await articles.remove(params.id);
      return { success: true };
    },
  });
}
