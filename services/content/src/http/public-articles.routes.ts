import { ArticleSearchQuery, ArticlesListResponse, ArticlesQuery, SlugParams } from '@gpt/contracts';
import { respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { ContentDeps } from '../deps';
import { publicArticles } from '../domain/public-articles';
import { sendAnswer } from '@gpt/kit';
import { visitorOf } from './request-context';

/** The public article calls of docs/product.md, Calls (no login). */
export function publicArticlesRouter(deps: ContentDeps): Router {
  const articles = publicArticles(deps);

  return Router()
    .get('/api/articles', async (req, res) => {
      sendAnswer(req, res, await articles.list(validate(ArticlesQuery, req.query)));
    })
    .get('/api/articles/search', async (req, res) => {
      respond(res, ArticlesListResponse, await articles.search(validate(ArticleSearchQuery, req.query)));
    })
    .get('/api/articles/category/:slug', async (req, res) => {
      const { slug } = validate(SlugParams, req.params);
      sendAnswer(req, res, await articles.inCategory(slug, validate(ArticlesQuery, req.query)));
    })
    .get('/api/articles/tag/:slug', async (req, res) => {
      const { slug } = validate(SlugParams, req.params);
      sendAnswer(req, res, await articles.withTag(slug, validate(ArticlesQuery, req.query)));
    })
    .get('/api/articles/:slug', async (req, res) => {
      const { slug } = validate(SlugParams, req.params);
      sendAnswer(req, res, await articles.read(slug, visitorOf(req)));
    })
    .get('/api/article_categories/select', async (req, res) => {
      sendAnswer(req, res, await articles.categoryOptions());
    })
    .get('/api/article_tags/select', async (req, res) => {
      sendAnswer(req, res, await articles.tagOptions());
    });
}
