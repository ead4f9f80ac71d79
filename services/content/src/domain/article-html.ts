import { ARTICLE_MEDIA_ID, ARTICLE_MEDIA_PATH } from '@gpt/contracts';
import { stripBidi } from '@gpt/kit';
import sanitizeHtml from 'sanitize-html';

const colorValue = [
  /^#[0-9a-f]{3,8}$/i,
  /^rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\)$/i,
];
const LINK_REL = 'noopener noreferrer nofollow';

/** What the admin editor produces (docs/product.md, Screens toolbar) and nothing else. */
const articleHtmlOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'del',
    'ul',
    'ol',
    'li',
    'a',
    'span',
    'blockquote',
    'pre',
    'code',
    'hr',
    'img',
  ],
  allowedAttributes: {
    a: ['href', { name: 'target', multiple: false, values: ['_blank'] }, 'rel'],
    img: ['src', 'alt'],
    '*': ['style'],
  },
  allowedStyles: {
    '*': {
      color: colorValue,
      'background-color': colorValue,
      'text-align': [/^(left|right|center|justify)$/],
    },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Images only from the product's own article media, uploaded through the editor.
  exclusiveFilter: (frame) => frame.tag === 'img' && !isArticleMediaPath(frame.attribs.src),
  transformTags: {
    // A link that opens a new tab must not hand the opener to the other site.
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target ? { ...attribs, rel: LINK_REL } : withoutKey(attribs, 'rel'),
    }),
  },
};

function isArticleMediaPath(src: string | undefined): boolean {
  if (src === undefined || !src.startsWith(`${ARTICLE_MEDIA_PATH}/`)) return false;
  return ARTICLE_MEDIA_ID.test(src.slice(ARTICLE_MEDIA_PATH.length + 1));
}

function withoutKey(record: Record<string, string>, key: string): Record<string, string> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

/**
 * Article HTML as stored and served: the editor's formatting survives; scripts, event handlers,
 * `javascript:` URLs, iframes, foreign styles and bidirectional control characters do not.
 */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(stripBidi(html), articleHtmlOptions).trim();
}

const BLOCK_TAG = /<\/?(p|h[1-6]|ul|ol|li|blockquote|pre)\b[^>]*>|<br\s*\/?>|<hr\s*\/?>/gi;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The words of sanitized HTML, one space between blocks (for search, reading time and descriptions). */
export function plainTextOf(html: string): string {
  const text = sanitizeHtml(html.replace(BLOCK_TAG, ' $& '), { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}

/** Silent reading speed of Russian prose, words per minute. */
const WORDS_PER_MINUTE = 180;

/** Whole minutes to read the text, at least 1. */
export function readingTimeOf(plainText: string): number {
  const words = plainText.split(' ').filter(Boolean).length;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

/** The first sentence-ish stretch of the text, for descriptions: at most `max` characters, cut at a word. */
export function summaryOf(plainText: string, max = 160): string {
  if (plainText.length <= max) return plainText;
  const cut = plainText.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:—-]+$/, '')}…`;
}
