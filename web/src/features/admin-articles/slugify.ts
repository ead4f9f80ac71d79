const CYRILLIC = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя';
// Transliteration of each letter above ('' for the hard and soft signs).
const LATIN_OF = 'a b v g d e e zh z i y k l m n o p r s t u f kh ts ch sh shch _ y _ e yu ya'.split(' ');
const LATIN: Record<string, string> = Object.fromEntries(
  [...CYRILLIC].map((letter, index) => [letter, LATIN_OF[index] === '_' ? '' : (LATIN_OF[index] ?? '')]),
);

/** A slug from a (Russian) title: latin letters, digits and single hyphens, e.g. «Гайд по GPT» → gayd-po-gpt. */
export function slugify(title: string, maxLength = 80): string {
  const latin = [...title.toLowerCase()].map((char) => LATIN[char] ?? char).join('');
  return latin
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
}
