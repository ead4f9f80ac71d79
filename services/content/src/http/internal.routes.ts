import { SitemapArticlesResponse, SlugParams } from '@gpt/contracts';
import { respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { ContentDeps } from '../deps';
import { articlesRepository } from '../data/articles.repository';
import { articleSeoAnswer } from '../domain/article-seo';
import { sendAnswer } from '@gpt/kit';

/** For the gateway's SEO head and sitemap; under /internal, which the gateway never routes. */
export function internalRouter(deps: ContentDeps): Router {
  return Router()
    .get('/internal/articles/:slug/seo', async (req, res) => {
      const { slug } = validate(SlugParams, req.params);
      sendAnswer(req, res, await articleSeoAnswer(deps, slug));
    })
    .get('/internal/sitemap/articles', async (_req, res) => {
      const articles = await articlesRepository(deps.db).sitemapEntries();
      respond(res, SitemapArticlesResponse, { articles });
    });
}
