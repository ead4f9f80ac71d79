import {
  AdminCategoriesResponse,
  AdminTagsResponse,
  ArticleIdParams,
  CategoryInput,
  CategoryResponse,
  SuccessResponse,
  TagInput,
  TagResponse,
} from '@gpt/contracts';
import { requireAuth, respond, validate } from '@gpt/kit';
import { type RequestHandler, Router } from 'express';
import type { z } from 'zod';
import type { ContentDeps } from '../deps';
import { manageTaxonomies, type TaxonomyInput } from '../domain/manage-taxonomies';
import type { TaxonomyKind } from '../data/taxonomies.repository';

interface TaxonomyRoutes<K extends TaxonomyKind> {
  kind: K;
  path: string;
  input: z.ZodType<TaxonomyInput<K>>;
  /** The contract's answers: the list under `listKey`, one item under `itemKey`. */
  listSchema: z.ZodType;
  listKey: string;
  itemSchema: z.ZodType;
  itemKey: string;
}

function taxonomyRoutes<K extends TaxonomyKind>(
  router: Router,
  deps: ContentDeps,
  admin: RequestHandler,
  routes: TaxonomyRoutes<K>,
): Router {
  const manage = manageTaxonomies(deps, routes.kind);
  return router
    .get(routes.path, admin, async (_req, res) => {
      respond(res, routes.listSchema, { success: true, [routes.listKey]: await manage.list() });
    })
    .post(routes.path, admin, async (req, res) => {
      const item = await manage.create(validate(routes.input, req.body));
      respond(res, routes.itemSchema, { success: true, [routes.itemKey]: item }, 201);
    })
    .put(`${routes.path}/:id`, admin, async (req, res) => {
      const { id } = validate(ArticleIdParams, req.params);
      const item = await manage.update(id, validate(routes.input, req.body));
      respond(res, routes.itemSchema, { success: true, [routes.itemKey]: item });
    })
    .delete(`${routes.path}/:id`, admin, async (req, res) => {
      const { id } = validate(ArticleIdParams, req.params);
      await manage.remove(id);
      respond(res, SuccessResponse, { success: true });
    });
}

/** Category and tag management of the admin article screen (spec §7). */
export function adminTaxonomiesRouter(deps: ContentDeps): Router {
  const admin = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' });
  const router = Router();
  taxonomyRoutes(router, deps, admin, {
    kind: 'category',
    path: '/api/admin/article_categories',
    input: CategoryInput,
    listSchema: AdminCategoriesResponse,
    listKey: 'categories',
    itemSchema: CategoryResponse,
    itemKey: 'category',
  });
  taxonomyRoutes(router, deps, admin, {
    kind: 'tag',
    path: '/api/admin/article_tags',
    input: TagInput,
    listSchema: AdminTagsResponse,
    listKey: 'tags',
    itemSchema: TagResponse,
    itemKey: 'tag',
  });
  return router;
}
