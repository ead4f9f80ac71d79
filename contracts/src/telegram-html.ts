/**
 * Model output (Markdown as chat models write it) to Telegram's HTML parse mode.
 *
 * Telegram refuses a whole message over one bad tag, so the output is valid by construction:
 * every `<`, `>`, `&` and `"` of the model's text is escaped, tags are only ever emitted in
 * balanced pairs around already-converted content, code is escaped and holds no tags, and
 * anything unfinished (a half-streamed fence, `**` without its pair) stays as plain text or is
 * closed at the end of the input.
 */

/** Escapes text for Telegram HTML, in text and in attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&amp;': '&' };

/** The model's Markdown as a reader sees it, without its marks (`**`, `#`, backticks): a table cell's plain text. */
export function toPlainText(markdown: string): string {
  return toTelegramHtml(markdown)
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:lt|gt|quot|amp);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** Converts (possibly still streaming) Markdown into HTML that Telegram accepts. */
export function toTelegramHtml(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
    if (fence) {
      const [, marker, info] = fence;
      const closing = new RegExp(`^ {0,3}${marker![0] === '`' ? '`' : '~'}{${marker!.length},}\\s*$`);
      const body: string[] = [];
      i++;
      // An unclosed fence (the stream is still in it) runs to the end of the text.
      while (i < lines.length && !closing.test(lines[i]!)) body.push(lines[i++]!);
      i++;
      blocks.push(codeBlock(body.join('\n'), info!));
      continue;
    }
    if (/^ {0,3}>/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^ {0,3}>/.test(lines[i]!)) quoted.push(lines[i++]!.replace(/^ {0,3}(?:> ?)+/, ''));
      blocks.push(`<blockquote>${quoted.map((text) => inline(text)).join('\n')}</blockquote>`);
      continue;
    }
    blocks.push(lineToHtml(line));
    i++;
  }
  return blocks
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function codeBlock(code: string, info: string): string {
  const language = /^[\w+#.-]{1,32}$/.test(info) ? info : '';
  const escaped = escapeHtml(code);
  return language ? `<pre><code class="language-${language}">${escaped}</code></pre>` : `<pre>${escaped}</pre>`;
}

function lineToHtml(line: string): string {
  const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
  if (heading) return heading[1]!.trim() ? `<b>${inline(heading[1]!)}</b>` : '';
  if (/^ {0,3}([-*_])(?:\s*\1){2,}\s*$/.test(line)) return '———';
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) return `${bullet[1]}• ${inline(bullet[2]!)}`;
  return inline(line);
}

/** Emphasis markers, longest first so `**` is not read as two `*`. */
const EMPHASIS: Array<{ marker: string; tag: string }> = [
  { marker: '**', tag: 'b' },
  { marker: '__', tag: 'b' },
  { marker: '~~', tag: 's' },
  { marker: '*', tag: 'i' },
  { marker: '_', tag: 'i' },
];

const wordCharacter = /[\p{L}\p{N}]/u;
const isSpace = (char: string | undefined) => char === undefined || /\s/.test(char);
// The label excludes `[` so that a line of unclosed brackets is scanned once, not once per bracket.
const LINK = /\[([^[\]\n]+)\]\(\s*<?([^\s<>()]+(?:\([^\s<>()]*\)[^\s<>()]*)*)>?(?:\s+"[^"\n]*")?\s*\)/y;
const SAFE_URL = /^(?:https?:\/\/|tg:\/\/|mailto:)/i;

/** One line of text: code spans, links, bold, italic and strikethrough; everything else escaped. */
function inline(text: string, links = true): string {
  const line = new LineScanner(text);
  let html = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!~>|<]/.test(text[i + 1]!)) {
      html += escapeHtml(text[i + 1]!);
      i += 2;
      continue;
    }
    if (char === '`') {
      const span = line.codeSpan(i);
      if (span) {
        html += `<code>${escapeHtml(span.code)}</code>`;
        i = span.end;
        continue;
      }
      const run = line.backtickRun(i);
      html += text.slice(i, i + run);
      i += run;
      continue;
    }
    if (char === '[' && links) {
      LINK.lastIndex = i;
      const link = LINK.exec(text);
      if (link) {
        const label = inline(link[1]!, false);
        html += SAFE_URL.test(link[2]!) ? `<a href="${escapeHtml(link[2]!)}">${label}</a>` : label;
        i += link[0].length;
        continue;
      }
    }
    const run = line.markerRun(i);
    if (run > 3) {
      html += text.slice(i, i + run);
      i += run;
      continue;
    }
    const emphasis = EMPHASIS.find(({ marker }) => text.startsWith(marker, i) && line.canOpen(i, marker));
    const close = emphasis ? line.findClose(i + emphasis.marker.length, emphasis.marker) : -1;
    if (emphasis && close > i + emphasis.marker.length) {
      const content = text.slice(i + emphasis.marker.length, close);
      html += `<${emphasis.tag}>${inline(content, links)}</${emphasis.tag}>`;
      i = close + emphasis.marker.length;
      continue;
    }
    html += escapeHtml(char);
    i++;
  }
  return html;
}

/**
 * Finds code spans and closing markers in one line. A search that found nothing is remembered, so
 * a line full of markers that never close (hostile or half-streamed) costs linear time, not quadratic.
 */
class LineScanner {
  /** For a marker (or a backtick run length): the earliest position from which it was not found. */
  private readonly notFoundFrom = new Map<string | number, number>();

  constructor(private readonly text: string) {}

  /** How many of the same emphasis character (`*`, `_`, `~`) stand at `at`; longer runs than `***` are text. */
  markerRun(at: number): number {
    const char = this.text[at];
    if (char !== '*' && char !== '_' && char !== '~') return 0;
    let end = at;
    while (this.text[end] === char) end++;
    return end - at;
  }

  backtickRun(at: number): number {
    let end = at;
    while (this.text[end] === '`') end++;
    return end - at;
  }

  /** A code span opened by a run of backticks and closed by a run of the same length. */
  codeSpan(at: number): { code: string; end: number } | null {
    const { text } = this;
    const run = this.backtickRun(at);
    if (at >= (this.notFoundFrom.get(run) ?? Infinity)) return null;
    for (let j = text.indexOf('`', at + run); j >= 0; j = text.indexOf('`', j + this.backtickRun(j))) {
      if (this.backtickRun(j) === run) {
        const code = text.slice(at + run, j);
        // As in CommonMark, one space on each side lets a span start or end with a backtick.
        const trimmed = /^ .* $/.test(code) && code.trim() ? code.slice(1, -1) : code;
        return trimmed ? { code: trimmed, end: j + run } : null;
      }
    }
    this.notFoundFrom.set(run, at);
    return null;
  }

  /** An opening marker is followed by a non-space; `_` also must not stand inside a word (snake_case). */
  canOpen(at: number, marker: string): boolean {
    if (isSpace(this.text[at + marker.length])) return false;
    return !(marker[0] === '_' && at > 0 && wordCharacter.test(this.text[at - 1]!));
  }

  canClose(at: number, marker: string): boolean {
    if (isSpace(this.text[at - 1])) return false;
    return !(marker[0] === '_' && wordCharacter.test(this.text[at + marker.length] ?? ''));
  }

  /**
   * Where the marker that closes one opened before `from` stands, or -1. Code spans and escapes are
   * skipped; in a run longer than the marker (`***`) the marker closes at the run's end.
   */
  findClose(from: number, marker: string): number {
    const { text } = this;
    if (from >= (this.notFoundFrom.get(marker) ?? Infinity)) return -1;
    for (let j = from; j < text.length; j++) {
      const char = text[j]!;
      if (char === '\\') {
        j++;
        continue;
      }
      if (char === '`') {
        const span = this.codeSpan(j);
        j = (span ? span.end : j + this.backtickRun(j)) - 1;
        continue;
      }
      if (!text.startsWith(marker, j)) continue;
      const run = this.markerRun(j);
      const at = j + run - marker.length;
      // A single marker does not close on a `**` pair: that pair is bold inside the italic.
      const pair = marker.length === 1 && run === 2;
      if (!pair && run <= 3 && at >= from && this.canClose(at, marker)) return at;
      j += run - 1;
    }
    this.notFoundFrom.set(marker, from);
    return -1;
  }
}

// ── Splitting into messages ──────────────────────────────────────────────────────────────────────

/** A piece of Telegram HTML that is never cut: a tag, an entity or one character. */
interface Token {
  text: string;
  kind: 'open' | 'close' | 'text';
  /** For tags: the lower-case tag name. */
  name?: string;
}

const TOKEN = /<\/?([a-zA-Z][\w-]*)[^>]*>|&(?:#\d+|#x[\da-fA-F]+|[a-zA-Z]+);|[\s\S]/gu;

function tokenize(html: string): Token[] {
  return Array.from(html.matchAll(TOKEN), ([text, name]) => {
    if (!name) return { text, kind: 'text' as const };
    return { text, kind: text.startsWith('</') ? ('close' as const) : ('open' as const), name: name.toLowerCase() };
  });
}

type Boundary = 'paragraph' | 'line' | 'space' | 'any';

/**
 * Splits Telegram HTML (as `toTelegramHtml` makes it) into messages of at most `limit` characters,
 * preferring paragraph, then line, then word boundaries, never inside a tag or an entity. Tags open
 * at a cut are closed at the end of one part and reopened at the start of the next, so a long code
 * block becomes several `<pre>` blocks and every part is valid on its own.
 */
export function splitTelegramHtml(html: string, limit = 4096): string[] {
  const tokens = tokenize(html);
  const parts: string[] = [];
  let open: Token[] = [];
  let start = 0;
  while (start < tokens.length) {
    const reopen = open.map((tag) => tag.text).join('');
    const stack = [...open];
    let length = reopen.length;
    const best: Partial<Record<Boundary, { end: number; stack: Token[] }>> = {};
    let end = start;
    for (; end < tokens.length; end++) {
      const token = tokens[end]!;
      applyTag(stack, token);
      length += token.text.length;
      if (length + closers(stack).length > limit) break;
      if (token.kind === 'open') continue;
      const cut = { end: end + 1, stack: [...stack] };
      best.any = cut;
      if (token.text === '\n') best[tokens[end - 1]?.text === '\n' ? 'paragraph' : 'line'] = cut;
      else if (token.text === ' ') best.space = cut;
    }
    if (end >= tokens.length) {
      parts.push(
        reopen +
          tokens
            .slice(start)
            .map((token) => token.text)
            .join(''),
      );
      break;
    }
    const used = (cut: { end: number }) => cut.end - start;
    const wanted = (['paragraph', 'line', 'space'] as const)
      .map((kind) => best[kind])
      .find((cut) => cut && used(cut) >= (end - start) / 2);
    // With nothing fitting (tags longer than the limit), one token still goes, so the loop ends.
    const cut = wanted ?? best.any ?? { end: start + 1, stack: applyTag([...open], tokens[start]!) };
    const body = tokens
      .slice(start, cut.end)
      .map((token) => token.text)
      .join('');
    parts.push(reopen + body.replace(/\s+$/, '') + closers(cut.stack));
    open = cut.stack;
    start = cut.end;
    // Outside any tag, the whitespace at a cut is dropped rather than starting the next message.
    if (open.length === 0) while (start < tokens.length && /^\s$/.test(tokens[start]!.text)) start++;
  }
  return parts.filter((part) => part.replace(/<[^>]*>/g, '').trim() !== '');
}

/** The tags open after `token`. */
function applyTag(stack: Token[], token: Token): Token[] {
  if (token.kind === 'open') stack.push(token);
  if (token.kind === 'close') stack.pop();
  return stack;
}

function closers(stack: Token[]): string {
  return stack
    .map((tag) => `</${tag.name}>`)
    .reverse()
    .join('');
}
