import { type ArticleSeo, ArticleSeoResponse } from '@gpt/contracts';
import type { ContentDeps } from '../deps';
import { articlesRepository } from '../data/articles.repository';
import { summaryOf } from './article-html';
import { contentErrors } from './errors';
import type { Answer } from './public-articles';

/** The head tags of a published article, each falling back as the spec's fields allow; no view is counted. */
export async function articleSeo(deps: ContentDeps, slug: string): Promise<ArticleSeo> {
  const source = await articlesRepository(deps.db).seoSource(slug);
  if (!source) throw contentErrors.articleNotFound();
  const title = source.meta_title ?? source.title;
  const description = source.meta_description ?? source.excerpt ?? summaryOf(source.plain_text);
  return {
    slug: source.slug,
    title,
    description,
    keywords: source.meta_keywords,
    og_title: source.og_title ?? title,
    og_description: source.og_description ?? description,
    og_image: source.og_image ?? source.featured_image,
    canonical_url: source.canonical_url,
    published_at: source.published_at.toISOString(),
    updated_at: source.updated_at.toISOString(),
  };
}

/** The head tags answer for the gateway, from the public cache (kept until content changes). */
export const articleSeoAnswer = (deps: ContentDeps, slug: string): Promise<Answer> =>
  deps.cache.get(`seo:${slug}`, async () => ArticleSeoResponse.parse({ article: await articleSeo(deps, slug) }));
