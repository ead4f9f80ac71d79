import {
  AdminArticleResponse,
  AdminArticlesQuery,
  AdminArticlesResponse,
  ArticleIdParams,
  ArticleInput,
  SuccessResponse,
} from '@gpt/contracts';
import { requireAuth, validate } from '@gpt/kit';
import { Router } from 'express';
import type { ContentDeps } from '../deps';
import { manageArticles } from '../domain/manage-articles';

/** The admin article calls of spec §7; the admin role is checked here too, not only at the gateway. */
export function adminArticlesRouter(deps: ContentDeps): Router {
  const admin = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' });
  const articles = manageArticles(deps);
  const respond = (article: AdminArticleResponse['article']) => AdminArticleResponse.parse({ success: true, article });

  return Router()
    .get('/api/admin/articles', admin, async (req, res) => {
      res.json(AdminArticlesResponse.parse(await articles.list(validate(AdminArticlesQuery, req.query))));
    })
    .post('/api/admin/articles', admin, async (req, res) => {
      const input = validate(ArticleInput, req.body);
      const authorId = Number(res.locals.claims?.sub) || null;
      res.status(201).json(respond(await articles.create(input, authorId)));
    })
    .get('/api/admin/articles/:id', admin, async (req, res) => {
      const { id } = validate(ArticleIdParams, req.params);
      res.json(respond(await articles.get(id)));
    })
    .put('/api/admin/articles/:id', admin, async (req, res) => {
      const { id } = validate(ArticleIdParams, req.params);
      res.json(respond(await articles.update(id, validate(ArticleInput, req.body))));
    })
    .delete('/api/admin/articles/:id', admin, async (req, res) => {
      const { id } = validate(ArticleIdParams, req.params);
      await articles.remove(id);
      res.json(SuccessResponse.parse({ success: true }));
    });
}
