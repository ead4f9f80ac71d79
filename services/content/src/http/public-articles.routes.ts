import { answered, routeHandlers, sendAnswer } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { publicArticles } from '../domain/public-articles';
import { visitorOf } from './request-context';

/** The public article calls of docs/product.md, Calls (no login); most answer with an ETag (`sendAnswer`). */
export function publicArticlesRoutes(deps: ContentDeps) {
  const articles = publicArticles(deps);
  return routeHandlers('content', {
    getArticles: async ({ req, res, query }) => {
      sendAnswer(req, res, await articles.list(query));
      return answered;
    },
    getArticlesSearch: ({ query }) => articles.search(query),
    getArticlesCategoryBySlug: async ({ req, res, params, query }) => {
      sendAnswer(req, res, await articles.inCategory(params.slug, query));
      return answered;
    },
    getArticlesTagBySlug: async ({ req, res, params, query }) => {
      sendAnswer(req, res, await articles.withTag(params.slug, query));
      return answered;
    },
    getArticlesBySlug: async ({ req, res, params }) => {
      sendAnswer(req, res, await articles.read(params.slug, visitorOf(req)));
      return answered;
    },
    getArticleCategoriesSelect: async ({ req, res }) => {
      sendAnswer(req, res, await articles.categoryOptions());
      return answered;
    },
    getArticleTagsSelect: async ({ req, res }) => {
      sendAnswer(req, res, await articles.tagOptions());
      return answered;
    },
  });
}
