import {
  ArticleDetailResponse,
  ArticleSearchQuery,
  ArticlesListResponse,
  ArticlesQuery,
  CategorySelectResponse,
  SlugParams,
  TagSelectResponse,
} from '@gpt/contracts';
import { validate } from '@gpt/kit';
import { Router } from 'express';
import type { ContentDeps } from '../app';
import { manageTaxonomies } from '../domain/manage-taxonomies';
import { publicArticles } from '../domain/public-articles';
import { visitorOf } from './request-context';

/** The public article calls of spec §7 (no login). */
export function publicArticlesRouter(deps: ContentDeps): Router {
  const articles = publicArticles(deps);
  const categories = manageTaxonomies(deps, 'category');
  const tags = manageTaxonomies(deps, 'tag');
  const list = (body: ArticlesListResponse) => ArticlesListResponse.parse(body);

  return Router()
    .get('/api/articles', async (req, res) => {
      res.json(list(await articles.list(validate(ArticlesQuery, req.query))));
    })
    .get('/api/articles/search', async (req, res) => {
      res.json(list(await articles.search(validate(ArticleSearchQuery, req.query))));
    })
    .get('/api/articles/category/:slug', async (req, res) => {
      const { slug } = validate(SlugParams, req.params);
      res.json(list(await articles.inCategory(slug, validate(ArticlesQuery, req.query))));
    })
    .get('/api/articles/tag/:slug', async (req, res) => {
      const { slug } = validate(SlugParams, req.params);
      res.json(list(await articles.withTag(slug, validate(ArticlesQuery, req.query))));
    })
    .get('/api/articles/:slug', async (req, res) => {
      const { slug } = validate(SlugParams, req.params);
      res.json(ArticleDetailResponse.parse(await articles.read(slug, visitorOf(req))));
    })
    .get('/api/article_categories/select', async (_req, res) => {
      res.json(CategorySelectResponse.parse({ success: true, categories: await categories.select() }));
    })
    .get('/api/article_tags/select', async (_req, res) => {
      res.json(TagSelectResponse.parse({ success: true, tags: await tags.select() }));
    });
}
