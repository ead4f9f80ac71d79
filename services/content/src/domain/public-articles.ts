import {
  ArticleDetailResponse,
  ArticlesListResponse,
  type ArticleSearchQuery,
  type ArticlesQuery,
  CategorySelectResponse,
  paginationOf,
  TagSelectResponse,
} from '@gpt/contracts';
import { answerOf, type CachedAnswer, containsPattern } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { articlesRepository, type PublicFilter } from '../data/articles.repository';
import { taxonomiesRepository } from '../data/taxonomies.repository';
import { searchWordsRepository } from '../data/search-words.repository';
import { anyOfEachTsquery, prefixPattern, searchTermsOf } from './search-terms';
import { contentErrors } from './errors';
import type { Visitor } from './view-counter';

/** Related articles shown under an article. */
export const RELATED_LIMIT = 3;
/** Known words a word being typed, or a part of a word, may stand for. */
const MAX_ALTERNATIVES = 100;

/** An answer ready to send: its JSON and its ETag. */
export type Answer = Pick<CachedAnswer<unknown>, 'body' | 'etag'>;

/** An article page as kept: the answer with the stored view count, and how many of those this process had stored. */
interface KeptArticle {
  response: ArticleDetailResponse;
  storedBefore: number;
  /** The answer last sent, reused while the view count stays the same. */
  last?: { viewCount: number; answer: Answer };
}

/**
 * What visitors read: the public lists, search and the article page. Everything but a search is
 * answered from the public cache (kept until content changes) and counts views in memory.
 */
export function publicArticles(deps: ContentDeps) {
  const articles = articlesRepository(deps.db);
  const categories = taxonomiesRepository(deps.db, 'category');
  const tags = taxonomiesRepository(deps.db, 'tag');
  const words = searchWordsRepository(deps.db);
  const { cache, views } = deps;
  const pageKey = (query: ArticlesQuery) => `${query.page}:${query.limit}`;

  const page = async (filter: PublicFilter, query: ArticlesQuery): Promise<ArticlesListResponse> => {
    const { articles: found, total } = await articles.publishedPage(filter, query);
    return ArticlesListResponse.parse({
      success: true,
      articles: found,
      pagination: paginationOf(query.page, query.limit, total),
    });
  };

  /** The article page with its stored view count, read when no batch of views is being stored meanwhile. */
  const keptArticle = async (slug: string): Promise<KeptArticle> => {
    for (;;) {
      const batches = views.batchesStored();
      const article = await articles.publishedBySlug(slug);
      if (!article) throw contentErrors.articleNotFound();
      if (views.batchesStored() !== batches) continue;
      const related = await articles.related(article.id, RELATED_LIMIT);
      const response = ArticleDetailResponse.parse({ success: true, article, related });
      return { response, storedBefore: views.storedSoFar(article.id) };
    }
  };
  const empty = (query: ArticlesQuery): ArticlesListResponse => ({
    success: true,
    articles: [],
    pagination: paginationOf(query.page, query.limit, 0),
  });

  return {
    list: (query: ArticlesQuery): Promise<Answer> =>
      cache.get(`list:${pageKey(query)}`, () => page({ kind: 'all' }, query)),

    inCategory: (slug: string, query: ArticlesQuery): Promise<Answer> =>
      cache.get(`category:${slug}:${pageKey(query)}`, async () => {
        const categoryId = await categories.idBySlug(slug);
        if (categoryId === undefined) throw contentErrors.taxonomy.category.notFound();
        return page({ kind: 'category', categoryId }, query);
      }),

    withTag: (slug: string, query: ArticlesQuery): Promise<Answer> =>
      cache.get(`tag:${slug}:${pageKey(query)}`, async () => {
        const tagId = await tags.idBySlug(slug);
        if (tagId === undefined) throw contentErrors.taxonomy.tag.notFound();
        return page({ kind: 'tag', tagId }, query);
      }),

    /** The category and tag select lists, most used first. */
    categoryOptions: (): Promise<Answer> =>
      cache.get('categories', async () =>
        CategorySelectResponse.parse({ success: true, categories: await categories.selectOptions() }),
      ),
    tagOptions: (): Promise<Answer> =>
      cache.get('tags', async () => TagSelectResponse.parse({ success: true, tags: await tags.selectOptions() })),

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
      const parts = await Promise.all(terms.map((term) => words.matching(containsPattern(term), MAX_ALTERNATIVES)));
      if (parts.some((found) => found.length === 0)) return ranked;
      return page({ kind: 'text', tsquery: anyOfEachTsquery(parts) }, query);
    },

    /**
     * The article page with related articles: counts a view (once per visitor within the window)
     * and shows the stored count plus the views this process counted since it read it.
     */
    async read(slug: string, visitor: Visitor): Promise<Answer> {
      const { value: kept } = await cache.get(`article:${slug}`, () => keptArticle(slug));
      const { article } = kept.response;
      await views.count(article.id, visitor);
      const viewCount = views.total(article.id, article.view_count, kept.storedBefore);
      if (kept.last?.viewCount !== viewCount) {
        kept.last = {
          viewCount,
          answer: answerOf(JSON.stringify({ ...kept.response, article: { ...article, view_count: viewCount } })),
        };
      }
      return kept.last.answer;
    },
  };
}
