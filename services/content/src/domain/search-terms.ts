import { escapeLike } from '@gpt/kit';

/** At most this many words of a search take part in the full-text query. */
const MAX_TERMS = 8;
/** Words shorter or longer than this are not worth remembering for the partial-word search. */
const WORD_LENGTH = { min: 2, max: 40 };
const WORD = /[\p{L}\p{N}]+/gu;

/** The distinct lowercase words of a text (letters and digits only). */
export function wordsOf(text: string): string[] {
  return [...new Set(text.toLowerCase().match(WORD) ?? [])];
}

/** The words of an article worth remembering for the partial-word search. */
export function vocabularyOf(...texts: (string | null)[]): string[] {
  return wordsOf(texts.filter(Boolean).join(' ')).filter(
    (word) => word.length >= WORD_LENGTH.min && word.length <= WORD_LENGTH.max,
  );
}

/** The words of a search box text that take part in a search (at most 8). */
export function searchTermsOf(text: string): string[] {
  return wordsOf(text).slice(0, MAX_TERMS);
}

/**
 * The full-text query `(a | b) & (c | d)`: for every term one of its words must match. Each word
 * is russian-stemmed by to_tsquery, so `модели` matches `модель`; only letters and digits reach it,
 * so no input can break its syntax.
 */
export function anyOfEachTsquery(alternatives: readonly (readonly string[])[]): string {
  return alternatives.map((words) => `(${words.join(' | ')})`).join(' & ');
}

/** A LIKE pattern of the words starting with the text. */
export const prefixPattern = (text: string) => `${escapeLike(text)}%`;
