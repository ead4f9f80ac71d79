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
  /** Wraps the list and one item into the response bodies of the contract. */
  listBody: (items: unknown[]) => unknown;
  itemBody: (item: unknown) => unknown;
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
      res.json(routes.listBody(await manage.list()));
    })
    .post(routes.path, admin, async (req, res) => {
      res.status(201).json(routes.itemBody(await manage.create(validate(routes.input, req.body))));
    })
    .put(`${routes.path}/:id`, admin, async (req, res) => {
      const { id } = validate(ArticleIdParams, req.params);
      res.json(routes.itemBody(await manage.update(id, validate(routes.input, req.body))));
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
    listBody: (categories) => AdminCategoriesResponse.parse({ success: true, categories }),
    itemBody: (category) => CategoryResponse.parse({ success: true, category }),
  });
  taxonomyRoutes(router, deps, admin, {
    kind: 'tag',
    path: '/api/admin/article_tags',
    input: TagInput,
    listBody: (tags) => AdminTagsResponse.parse({ success: true, tags }),
    itemBody: (tag) => TagResponse.parse({ success: true, tag }),
  });
  return router;
}
