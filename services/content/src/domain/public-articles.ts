import {
  type ArticleDetailResponse,
  type ArticlesListResponse,
  type ArticleSearchQuery,
  type ArticlesQuery,
  paginationOf,
} from '@gpt/contracts';
import { notFound } from '@gpt/kit';
import type { ContentDeps } from '../app';
import { articlesRepository, type PublicFilter } from '../data/articles.repository';
import { taxonomiesRepository } from '../data/taxonomies.repository';
import { searchWordsRepository } from '../data/search-words.repository';
import { anyOfEachTsquery, prefixPattern, searchTermsOf, substringPattern } from './search-terms';
import { viewCounter, type Visitor } from './view-counter';

/** Related articles shown under an article. */
export const RELATED_LIMIT = 3;
/** Known words a word being typed, or a part of a word, may stand for. */
const MAX_ALTERNATIVES = 100;

export const articleNotFound = () => notFound('Статья не найдена', 'article_not_found');

/** What visitors read: the public lists, search and the article page. */
export function publicArticles(deps: ContentDeps) {
  const articles = articlesRepository(deps.db);
  const categories = taxonomiesRepository(deps.db, 'category');
  const tags = taxonomiesRepository(deps.db, 'tag');
  const words = searchWordsRepository(deps.db);
  const views = viewCounter(deps.kv, deps.config.VIEW_WINDOW_SEC);

  const page = async (filter: PublicFilter, query: ArticlesQuery): Promise<ArticlesListResponse> => {
    const { articles: found, total } = await articles.publishedPage(filter, query);
    return { success: true, articles: found, pagination: paginationOf(query.page, query.limit, total) };
  };
  const empty = (query: ArticlesQuery): ArticlesListResponse => ({
    success: true,
    articles: [],
    pagination: paginationOf(query.page, query.limit, 0),
  });

  return {
    list: (query: ArticlesQuery) => page({ kind: 'all' }, query),

    async inCategory(slug: string, query: ArticlesQuery) {
      const categoryId = await categories.idBySlug(slug);
      if (categoryId === undefined) throw notFound('Категория не найдена', 'category_not_found');
      return page({ kind: 'category', categoryId }, query);
    },

    async withTag(slug: string, query: ArticlesQuery) {
      const tagId = await tags.idBySlug(slug);
      if (tagId === undefined) throw notFound('Тег не найден', 'tag_not_found');
      return page({ kind: 'tag', tagId }, query);
    },

    /**
     * Ranked russian full-text search over title, excerpt and text. Every term matches its word
     * forms (stemming); the last one, still being typed, also the known words it begins
     * (`нейро` → нейросети…). When that finds nothing, the partial-word fallback: each term stands
     * for the known words containing it (`ейросет` → нейросеть, нейросети…).
     */
    async search(query: ArticleSearchQuery): Promise<ArticlesListResponse> {
      const terms = searchTermsOf(query.q);
      const last = terms.at(-1);
      if (last === undefined) return empty(query);
      const completions = await words.matching(prefixPattern(last), MAX_ALTERNATIVES);
      const typed = [...terms.slice(0, -1).map((term) => [term]), [last, ...completions]];
      const ranked = await page({ kind: 'text', tsquery: anyOfEachTsquery(typed) }, query);
      if (ranked.pagination.total > 0) return ranked;
      const parts = await Promise.all(terms.map((term) => words.matching(substringPattern(term), MAX_ALTERNATIVES)));
      if (parts.some((found) => found.length === 0)) return ranked;
      return page({ kind: 'text', tsquery: anyOfEachTsquery(parts) }, query);
    },

    /** The article page: counts a view (once per visitor within the window) and finds related articles. */
    async read(slug: string, visitor: Visitor): Promise<ArticleDetailResponse> {
      const article = await articles.publishedBySlug(slug);
      if (!article) throw articleNotFound();
      if (await views.isNewView(article.id, visitor)) article.view_count = await articles.addView(article.id);
      return { success: true, article, related: await articles.related(article.id, RELATED_LIMIT) };
    },
  };
}
