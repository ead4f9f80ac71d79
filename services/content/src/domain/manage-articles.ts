import type { AdminArticle, AdminArticlesQuery, ArticleInput } from '@gpt/contracts';
import { stripBidi, violatedUniqueConstraint } from '@gpt/kit';
import type { Kysely } from 'kysely';
import type { ContentDeps } from '../deps';
import {
  ARTICLE_SLUG_CONSTRAINT,
  articlesRepository,
  type ArticleValues,
  type StoredArticle,
} from '../data/articles.repository';
import type { ContentDatabase } from '../data/schema';
import { taxonomiesRepository } from '../data/taxonomies.repository';
import { searchWordsRepository } from '../data/search-words.repository';
import { plainTextOf, readingTimeOf, sanitizeArticleHtml } from './article-html';
import { contentErrors } from './errors';
import { vocabularyOf } from './search-terms';

const cleanText = (value: string | null) => (value === null ? null : stripBidi(value).trim() || null);

/**
 * The stored form of an article: HTML sanitized, bidirectional controls stripped, reading time
 * computed when not given, and the publication time set when it is first published.
 */
function articleValues(input: ArticleInput, before: StoredArticle | undefined, now: Date): ArticleValues {
  const content = sanitizeArticleHtml(input.content);
  const plainText = plainTextOf(content);
  const title = stripBidi(input.title).trim();
  if (title === '' || plainText === '') throw contentErrors.articleFieldsMissing();
  const publishedAt = input.published_at
    ? new Date(input.published_at)
    : (before?.published_at ?? (input.status === 'published' ? now : null));
  return {
    slug: input.slug,
    title,
    excerpt: cleanText(input.excerpt),
    content,
    plain_text: plainText,
    meta_title: cleanText(input.meta_title),
    meta_description: cleanText(input.meta_description),
    meta_keywords: cleanText(input.meta_keywords),
    og_title: cleanText(input.og_title),
    og_description: cleanText(input.og_description),
    og_image: input.og_image,
    canonical_url: input.canonical_url,
    status: input.status,
    featured_image: input.featured_image,
    reading_time: input.reading_time ?? readingTimeOf(plainText),
    published_at: publishedAt,
  };
}

/** The article's words join the vocabulary of the partial-word search. */
const rememberWords = (trx: Kysely<ContentDatabase>, values: ArticleValues) =>
  searchWordsRepository(trx).add(vocabularyOf(values.title, values.excerpt, values.plain_text));

/** The admin's article screen: list, read, create, edit, delete; each change is shown by the public reads at once. */
export function manageArticles(deps: ContentDeps) {
  const { cache } = deps;
  const categories = taxonomiesRepository(deps.db, 'category');
  const tags = taxonomiesRepository(deps.db, 'tag');

  const assertTaxonomiesExist = async (input: ArticleInput) => {
    const [missingCategories, missingTags] = await Promise.all([
      categories.missingIds(input.category_ids),
      tags.missingIds(input.tag_ids),
    ]);
    if (missingCategories.length > 0) {
      throw contentErrors.unknownCategories(missingCategories);
    }
    if (missingTags.length > 0) throw contentErrors.unknownTags(missingTags);
  };

  /**
   * Runs the write in a transaction and answers the article as that write left it (read before the
   * commit, while the row is still locked against a concurrent edit); a slug somebody else holds is a 409.
   */
  const write = async (work: (trx: Kysely<ContentDatabase>) => Promise<number>): Promise<AdminArticle> => {
    try {
      const written = await deps.db.transaction().execute(async (trx) => {
        const id = await work(trx);
        return (await articlesRepository(trx).adminById(id)) as AdminArticle;
      });
      cache.changed();
      return written;
    } catch (err) {
      if (violatedUniqueConstraint(err) === ARTICLE_SLUG_CONSTRAINT) throw contentErrors.articleSlugTaken();
      throw err;
    }
  };

  return {
    list: (query: AdminArticlesQuery) => articlesRepository(deps.db).adminPage(query),

    async get(id: number): Promise<AdminArticle> {
      const article = await articlesRepository(deps.db).adminById(id);
      if (!article) throw contentErrors.articleNotFound();
      return article;
    },

    async create(input: ArticleInput, authorId: number | null): Promise<AdminArticle> {
      const values = articleValues(input, undefined, new Date());
      await assertTaxonomiesExist(input);
      return write(async (trx) => {
        const articles = articlesRepository(trx);
        const id = await articles.insert(values, authorId);
        await articles.setTaxonomies(id, input.category_ids, input.tag_ids);
        await rememberWords(trx, values);
        return id;
      });
    },

    async update(id: number, input: ArticleInput): Promise<AdminArticle> {
      const before = await articlesRepository(deps.db).stored(id);
      if (!before) throw contentErrors.articleNotFound();
      const values = articleValues(input, before, new Date());
      await assertTaxonomiesExist(input);
      return write(async (trx) => {
        const articles = articlesRepository(trx);
        await articles.update(id, values);
        await articles.setTaxonomies(id, input.category_ids, input.tag_ids);
        await rememberWords(trx, values);
        return id;
      });
    },

    async remove(id: number): Promise<void> {
      if (!(await articlesRepository(deps.db).delete(id))) throw contentErrors.articleNotFound();
      cache.changed();
    },
  };
}
