import { createHttpApp, standardReadiness } from '@gpt/kit';
import type { ContentDeps } from './deps';
import { adminArticlesRouter } from './http/admin-articles.routes';
import { adminTaxonomiesRouter } from './http/admin-taxonomies.routes';
import { articleMediaRouter } from './http/article-media.routes';
import { feedbackRouter } from './http/feedback.routes';
import { internalRouter } from './http/internal.routes';
import { publicArticlesRouter } from './http/public-articles.routes';

/** Articles, categories, tags and the contact form. */
export function buildApp(deps: ContentDeps) {
  return createHttpApp({
    name: 'content',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(publicArticlesRouter(deps));
      app.use(feedbackRouter(deps));
      app.use(adminArticlesRouter(deps));
      app.use(adminTaxonomiesRouter(deps));
      app.use(articleMediaRouter(deps));
      app.use(internalRouter(deps));
    },
  });
}
