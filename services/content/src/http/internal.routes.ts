import { ArticleSeoResponse, SitemapArticlesResponse, SlugParams } from '@gpt/contracts';
import { validate } from '@gpt/kit';
import { Router } from 'express';
import type { ContentDeps } from '../app';
import { articlesRepository } from '../data/articles.repository';
import { articleSeo } from '../domain/article-seo';

/** For the gateway's SEO head and sitemap; under /internal, which the gateway never routes. */
export function internalRouter(deps: ContentDeps): Router {
  return Router()
    .get('/internal/articles/:slug/seo', async (req, res) => {
      const { slug } = validate(SlugParams, req.params);
      res.json(ArticleSeoResponse.parse({ article: await articleSeo(deps, slug) }));
    })
    .get('/internal/sitemap/articles', async (_req, res) => {
      const articles = await articlesRepository(deps.db).sitemapEntries();
      res.json(SitemapArticlesResponse.parse({ articles }));
    });
}
