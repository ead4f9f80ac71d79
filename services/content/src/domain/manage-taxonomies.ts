import type { ArticleCategory, ArticleTag, CategoryInput, TagInput } from '@gpt/contracts';
import { conflict, notFound, stripBidi, violatedUniqueConstraint } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { type TaxonomyKind, taxonomiesRepository, uniqueConstraintsOf } from '../data/taxonomies.repository';
import { contentState } from './content-state';

interface Problem {
  message: string;
  code: string;
}

const PROBLEMS: Record<TaxonomyKind, Record<'notFound' | 'nameTaken' | 'slugTaken', Problem>> = {
  category: {
    notFound: { message: 'Категория не найдена', code: 'category_not_found' },
    nameTaken: { message: 'Категория с таким названием уже существует', code: 'category_name_taken' },
    slugTaken: { message: 'Категория с таким slug уже существует', code: 'category_slug_taken' },
  },
  tag: {
    notFound: { message: 'Тег не найден', code: 'tag_not_found' },
    nameTaken: { message: 'Тег с таким названием уже существует', code: 'tag_name_taken' },
    slugTaken: { message: 'Тег с таким slug уже существует', code: 'tag_slug_taken' },
  },
};

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
  const problems = PROBLEMS[kind];
  const constraints = uniqueConstraintsOf(kind);
  const missing = () => notFound(problems.notFound.message, problems.notFound.code);

  const { cache } = contentState(deps);

  const saving = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const saved = await work();
      cache.changed();
      return saved;
    } catch (err) {
      const constraint = violatedUniqueConstraint(err);
      if (constraint === constraints.name) throw conflict(problems.nameTaken.message, problems.nameTaken.code);
      if (constraint === constraints.slug) throw conflict(problems.slugTaken.message, problems.slugTaken.code);
      throw err;
    }
  };

  return {
    list: () => repository.list() as Promise<Output<K>[]>,

    create: (input: TaxonomyInput<K>) => saving(() => repository.insert(cleaned(input))) as Promise<Output<K>>,

    async update(id: number, input: TaxonomyInput<K>): Promise<Output<K>> {
      const updated = await saving(() => repository.update(id, cleaned(input)));
      if (!updated) throw missing();
      return updated as Output<K>;
    },

    async remove(id: number): Promise<void> {
      if (!(await repository.delete(id))) throw missing();
      cache.changed();
    },
  };
}
