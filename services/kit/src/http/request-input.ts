import { AppError, badRequest } from '../errors';

/** No request of ours nests deeper than a few levels; far deeper JSON is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32;

export const badPath = () => badRequest('Некорректный адрес запроса', 'bad_path');
const unsupportedEncoding = () =>
  new AppError('Тело запроса должно быть JSON в кодировке UTF-8', 'unsupported_encoding', 415);
const invalidJson = () => badRequest('Некорректный JSON в теле запроса', 'invalid_json');

/** UTF-8 only; the BOM, when there is one, is dropped (`ignoreBOM: false`). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * True when every percent-escape of the path decodes to UTF-8 text: `%ZZ`, a cut-off escape or an
 * encoded lone surrogate is not a path any route can mean.
 */
export function isWellFormedPath(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The one reading of a JSON request body, shared by the gateway (which reads the login form) and
 * every service, so both see the same thing: UTF-8 only, with or without a BOM (anything else,
 * UTF-16 and UTF-32 included, is 415); nesting no deeper than MAX_JSON_DEPTH (400, checked before
 * parsing); an object or an array at the top (400). An empty body reads as `{}`.
 */
export function parseJsonBody(body: Buffer, contentType: string | undefined): unknown {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw unsupportedEncoding();
  // UTF-16/32 text has NUL bytes, and their BOMs are bytes UTF-8 never has; JSON never has a raw NUL.
  if (body.includes(0)) throw unsupportedEncoding();
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw unsupportedEncoding();
  }
  if (text.trim() === '') return {};
  if (nestingExceeds(text, MAX_JSON_DEPTH)) {
    throw badRequest(`JSON вложен глубже ${MAX_JSON_DEPTH} уровней`, 'json_too_deep');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidJson();
  }
  if (parsed === null || typeof parsed !== 'object') throw invalidJson();
  return parsed;
}

/** One pass over the text counting open brackets outside strings. */
function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
