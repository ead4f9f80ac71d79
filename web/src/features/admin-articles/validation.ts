import { SLUG_PATTERN, SLUG_RULE } from './slugify';

/** The docs/product.md, Validation message for a missing title, slug, content, or category/tag name and slug. */
export const REQUIRED_FIELDS = 'Заполните обязательные поля';

/** The first rule the article form breaks, or null (docs/product.md, Validation). */
export function articleProblem(values: {
  title: string;
  slug: string;
  content: string;
  reading_time: string;
}): string | null {
  if (!values.title.trim() || !values.slug.trim() || !values.content.trim()) return REQUIRED_FIELDS;
  if (!SLUG_PATTERN.test(values.slug.trim())) return SLUG_RULE;
  const minutes = values.reading_time.trim();
  if (minutes !== '' && !(Number.isInteger(Number(minutes)) && Number(minutes) >= 1)) {
    return 'Время чтения — целое число минут, не меньше 1';
  }
  return null;
}

/** The first rule a category or tag form breaks, or null (docs/product.md, Validation). */
export function taxonomyProblem(values: { name: string; slug: string }): string | null {
  if (!values.name.trim() || !values.slug.trim()) return REQUIRED_FIELDS;
  if (!SLUG_PATTERN.test(values.slug.trim())) return SLUG_RULE;
  return null;
}
