import { getDocumentProxy } from 'unpdf';
import { docxText } from './docx';
import { UnreadableDocumentError, UnsupportedDocumentError } from './refusals';

/** The document formats the bot reads; anything else is refused before any parsing. */
export type DocumentKind = 'txt' | 'md' | 'pdf' | 'docx';

export interface ExtractOptions {
  /** As the user's client named the file (Telegram's `file_name`), when it did. */
  fileName?: string;
  /** As Telegram reports it (`mime_type`), when it does. */
  mimeType?: string;
  /** The longest text handed on; a longer one is cut at a whitespace boundary (and no more is read). */
  maxChars: number;
  /** A .docx whose zip directory lists more unpacked bytes or entries than these is refused unread. */
  maxUnpackedBytes?: number;
  maxEntries?: number;
  /** PDF pages read at most, one at a time. */
  maxPages?: number;
}

/** The bounds a document is read within, unless the caller sets others. */
export const DOCUMENT_LIMITS = { maxUnpackedBytes: 20 * 1024 * 1024, maxEntries: 500, maxPages: 300 };

export interface ExtractedDocument {
  text: string;
  truncated: boolean;
  kind: DocumentKind;
}

const byExtension: Record<string, DocumentKind> = {
  txt: 'txt',
  text: 'txt',
  md: 'md',
  markdown: 'md',
  pdf: 'pdf',
  docx: 'docx',
};

const byMimeType: Record<string, DocumentKind> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/**
 * Reads the text of a document the user sent, for a model's context. The kind comes from the file
 * name's extension (what the user chose) or else the MIME type; the content must then match it.
 */
export async function extractDocumentText(bytes: Buffer, options: ExtractOptions): Promise<ExtractedDocument> {
  const kind = documentKind(options);
  const limits = { ...DOCUMENT_LIMITS, ...options };
  const raw =
    kind === 'pdf' ? await pdfText(bytes, limits) : kind === 'docx' ? await docxText(bytes, limits) : plainText(bytes);
  const text = normalise(raw);
  if (!text) throw new UnreadableDocumentError('empty');
  return { ...truncate(text, options.maxChars), kind };
}

function documentKind({ fileName, mimeType }: ExtractOptions): DocumentKind {
  const extension = fileName?.includes('.') ? fileName.split('.').pop()!.toLowerCase() : undefined;
  const kind = extension ? byExtension[extension] : byMimeType[mimeType?.split(';')[0]?.trim().toLowerCase() ?? ''];
  if (!kind) throw new UnsupportedDocumentError();
  return kind;
}

/**
 * A PDF's text page by page, as pdf.js lays it out, stopping once `maxChars` are collected or after
 * `maxPages`; each page's resources are freed before the next.
 */
async function pdfText(bytes: Buffer, limits: { maxChars: number; maxPages: number }): Promise<string> {
  try {
    // pdf.js takes ownership of (detaches) the array it is given, so it gets a copy; verbosity 0
    // keeps its repair warnings about damaged files out of the log.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const pages: string[] = [];
      let length = 0;
      for (let number = 1; number <= Math.min(pdf.numPages, limits.maxPages) && length <= limits.maxChars; number++) {
        const page = await pdf.getPage(number);
        const content = await page.getTextContent();
        const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
        page.cleanup();
        pages.push(text);
        length += text.length;
      }
      return pages
        .join('\n')
        .replace(/[^\S\n]+/g, ' ')
        .replace(/ ?\n ?/g, '\n');
    } finally {
      await pdf.destroy();
    }
  } catch (err) {
    throw new UnreadableDocumentError('corrupt', { cause: err });
  }
}

/** Control characters other than tab, line feed, form feed and carriage return: text files have none. */
const controlCharacter = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/; // eslint-disable-line no-control-regex

/** UTF-8 (with or without a BOM); a file that is not valid UTF-8 is read as Windows-1251, still common for Russian text. */
function plainText(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1251').decode(bytes);
  }
  if (controlCharacter.test(text)) throw new UnreadableDocumentError('binary');
  return text;
}

function normalise(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Cuts at the last whitespace within the limit, unless that would drop more than a fifth of it (one huge word). */
function truncate(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const head = text.slice(0, maxChars + 1);
  const boundary = Math.max(head.lastIndexOf(' '), head.lastIndexOf('\n'), head.lastIndexOf('\t'));
  const cut = boundary >= maxChars * 0.8 ? boundary : maxChars;
  return { text: text.slice(0, cut).trimEnd(), truncated: true };
}
