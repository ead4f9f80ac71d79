import {
  AdminArticleResponse,
  AdminArticlesQuery,
  AdminArticlesResponse,
  ArticleIdParams,
  ArticleInput,
  SuccessResponse,
} from '@gpt/contracts';
import { requireAuth, respond, validate } from '@gpt/kit';
import { type Response, Router } from 'express';
import type { ContentDeps } from '../deps';
import { manageArticles } from '../domain/manage-articles';

/** The admin article calls of docs/product.md, Calls; the admin role is checked here too, not only at the gateway. */
export function adminArticlesRouter(deps: ContentDeps): Router {
  const admin = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' });
  const articles = manageArticles(deps);
  const answer = (res: Response, article: AdminArticleResponse['article'], status?: number) =>
    respond(res, AdminArticleResponse, { success: true, article }, status);

  return Router()
    .get('/api/admin/articles', admin, async (req, res) => {
      respond(res, AdminArticlesResponse, await articles.list(validate(AdminArticlesQuery, req.query)));
    })
    .post('/api/admin/articles', admin, async (req, res) => {
      const input = validate(ArticleInput, req.body);
      const authorId = Number(res.locals.claims?.sub) || null;
      answer(res, await articles.create(input, authorId), 201);
    })
    .get('/api/admin/articles/:id', admin, async (req, res) => {
      const { id } = validate(ArticleIdParams, req.params);
      answer(res, await articles.get(id));
    })
    .put('/api/admin/articles/:id', admin, async (req, res) => {
      const { id } = validate(ArticleIdParams, req.params);
      answer(res, await articles.update(id, validate(ArticleInput, req.body)));
    })
    .delete('/api/admin/articles/:id', admin, async (req, res) => {
      const { id } = validate(ArticleIdParams, req.params);
      await articles.remove(id);
      respond(res, SuccessResponse, { success: true });
    });
}
