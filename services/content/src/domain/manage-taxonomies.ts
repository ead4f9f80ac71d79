import type { ArticleCategory, ArticleTag, CategoryInput, TagInput } from '@gpt/contracts';
import { stripBidi, violatedUniqueConstraint } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { type TaxonomyKind, taxonomiesRepository, uniqueConstraintsOf } from '../data/taxonomies.repository';
import { contentErrors } from './errors';

export type TaxonomyInput<K extends TaxonomyKind> = K extends 'category' ? CategoryInput : TagInput;
type Output<K extends TaxonomyKind> = K extends 'category' ? ArticleCategory : ArticleTag;

/** Keeps bidirectional controls out of every text field. */
function cleaned<T extends Record<string, unknown>>(input: T): T {
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [key, typeof value === 'string' ? stripBidi(value) : value]),
  ) as T;
}

/**
 * The admin's category or tag management: names and slugs unique (409 naming which), deleting
 * one takes it off every article. Every change is shown by the public reads at once.
 */
export function manageTaxonomies<K extends TaxonomyKind>(deps: ContentDeps, kind: K) {
  const repository = taxonomiesRepository(deps.db, kind);
  const problems = contentErrors.taxonomy[kind];
  const constraints = uniqueConstraintsOf(kind);
  const { cache } = deps;

  const saving = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const saved = await work();
      cache.changed();
      return saved;
    } catch (err) {
      const constraint = violatedUniqueConstraint(err);
      if (constraint === constraints.name) throw problems.nameTaken();
      if (constraint === constraints.slug) throw problems.slugTaken();
      throw err;
    }
  };

  return {
    list: () => repository.list() as Promise<Output<K>[]>,

    create: (input: TaxonomyInput<K>) => saving(() => repository.insert(cleaned(input))) as Promise<Output<K>>,

    async update(id: number, input: TaxonomyInput<K>): Promise<Output<K>> {
      const updated = await saving(() => repository.update(id, cleaned(input)));
      if (!updated) throw problems.notFound();
      return updated as Output<K>;
    },

    async remove(id: number): Promise<void> {
      if (!(await repository.delete(id))) throw problems.notFound();
      cache.changed();
    },
  };
}
