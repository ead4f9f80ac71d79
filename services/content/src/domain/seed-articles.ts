import { ArticleInput } from '@gpt/contracts';
import { AppError } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { articlesRepository } from '../data/articles.repository';
import { taxonomiesRepository } from '../data/taxonomies.repository';
import { manageArticles } from './manage-articles';
import { seedArticles, seedCategories, seedTags } from './seed-content';

/**
 * On a fresh database (no article yet): the categories, tags and the two published articles the
 * home page links to. Later starts leave the admin's content alone, deleted seeds included.
 */
export async function seedContent(deps: ContentDeps): Promise<void> {
  const articles = articlesRepository(deps.db);
  if (await articles.anyExists()) return;
  const categoryIds = await taxonomiesRepository(deps.db, 'category').ensure(seedCategories);
  const tagIds = await taxonomiesRepository(deps.db, 'tag').ensure(seedTags);
  const manage = manageArticles(deps);
  for (const { categories, tags, ...article } of seedArticles) {
    const input = ArticleInput.parse({
      ...article,
      status: 'published',
      category_ids: categories.flatMap((slug) => categoryIds.get(slug) ?? []),
      tag_ids: tags.flatMap((slug) => tagIds.get(slug) ?? []),
    });
    try {
      await manage.create(input, null);
    } catch (err) {
      // Another replica seeding the same fresh database got there first.
      if (err instanceof AppError && err.code === 'slug_taken') return;
      throw err;
    }
  }
  deps.logger.info({ articles: seedArticles.length }, 'starting articles created');
}
