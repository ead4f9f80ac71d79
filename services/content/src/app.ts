import { contractRouter, createHttpApp, standardReadiness } from '@gpt/kit';
import type { ContentDeps } from './deps';
import { adminArticlesRoutes } from './http/admin-articles.routes';
import { adminTaxonomiesRoutes } from './http/admin-taxonomies.routes';
import { articleMediaRoutes } from './http/article-media.routes';
import { feedbackRoutes } from './http/feedback.routes';
import { internalRouter } from './http/internal.routes';
import { publicArticlesRoutes } from './http/public-articles.routes';

/** Articles, categories, tags and the contact form. */
export function buildApp(deps: ContentDeps) {
  return createHttpApp({
    name: 'content',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(
        contractRouter(
          'content',
          { jwtSecret: deps.config.JWT_SECRET, kv: deps.kv },
          {
            ...publicArticlesRoutes(deps),
            ...feedbackRoutes(deps),
            ...adminArticlesRoutes(deps),
            ...adminTaxonomiesRoutes(deps),
            ...articleMediaRoutes(deps),
          },
        ),
      );
      app.use(internalRouter(deps));
    },
  });
}
