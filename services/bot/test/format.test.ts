import { describe, expect, test } from '@jest/globals';
import { escapeHtml, splitTelegramHtml, toTelegramHtml } from '@gpt/contracts';
import { parseTelegramHtml } from '@gpt/telegram-sandbox/testing';
import { closeOpenInline } from '../src/telegram/answer-message';

/** What the user reads: the text Telegram shows after parsing the HTML (which throws where Telegram refuses). */
const visible = (html: string) => parseTelegramHtml(html).text;
const withoutSpace = (text: string) => text.replace(/\s+/g, '');

/** A deterministic stream of pseudo-random numbers (the same cases on every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const hostilePieces = [
  '*',
  '**',
  '***',
  '_',
  '__',
  '~~',
  '`',
  '```',
  '```js\n',
  '[',
  '](',
  ')',
  '[ссылка](https://example.com/a?b=1&c=2)',
  '[x](javascript:alert(1))',
  '<',
  '>',
  '&',
  '&amp;',
  '&#',
  '"',
  '<b>',
  '</i>',
  '<script>',
  '\\',
  '\n',
  '\n\n',
  '# ',
  '> ',
  '- ',
  '1. ',
  ' ',
  'слово',
  'word',
  'snake_case_name',
  '2 * 3',
  '😀',
  'a < b && c',
];

function hostileMarkdown(next: () => number, pieces: number): string {
  return Array.from({ length: pieces }, () => hostilePieces[Math.floor(next() * hostilePieces.length)]).join('');
}

describe('toTelegramHtml', () => {
  test.each([
    ['**bold** and __bold__', '<b>bold</b> and <b>bold</b>'],
    ['*italic* and _italic_', '<i>italic</i> and <i>italic</i>'],
    ['~~gone~~', '<s>gone</s>'],
    ['***both***', '<b><i>both</i></b>'],
    ['**bold _italic_ bold**', '<b>bold <i>italic</i> bold</b>'],
    ['use `npm i` now', 'use <code>npm i</code> now'],
    ['`` a`b ``', '<code>a`b</code>'],
    ['[docs](https://example.com/a?x=1&y=2)', '<a href="https://example.com/a?x=1&amp;y=2">docs</a>'],
    ['[**bold** link](https://example.com)', '<a href="https://example.com"><b>bold</b> link</a>'],
    ['# Title\n## Sub *it*', '<b>Title</b>\n<b>Sub <i>it</i></b>'],
    ['- one\n* two\n  + nested\n1. first', '• one\n• two\n  • nested\n1. first'],
    ['> quoted **text**\n> second line\nafter', '<blockquote>quoted <b>text</b>\nsecond line</blockquote>\nafter'],
    ['a\n\n\n\nb', 'a\n\nb'],
    ['---', '———'],
  ])('%j becomes %j', (markdown, html) => {
    expect(toTelegramHtml(markdown)).toBe(html);
  });

  test('a fenced block keeps its language and has <, > and & escaped, with no markup inside', () => {
    const html = toTelegramHtml('Код:\n```ts\nif (a < b && c > d) { **x** = `y`; }\n```\nГотово');
    expect(html).toBe(
      'Код:\n<pre><code class="language-ts">if (a &lt; b &amp;&amp; c &gt; d) { **x** = `y`; }</code></pre>\nГотово',
    );
    expect(parseTelegramHtml(html).entities).toEqual([{ type: 'pre', offset: 5, length: 36, language: 'ts' }]);
  });

  test('model text cannot inject tags: <script>, HTML tags and comparisons come out as text', () => {
    const markdown = '<script>alert("x")</script> <b>fake</b> a < b && c';
    const html = toTelegramHtml(markdown);
    expect(html).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &lt;b&gt;fake&lt;/b&gt; a &lt; b &amp;&amp; c',
    );
    expect(visible(html)).toBe(markdown);
  });

  test('a link to anything but http(s), tg or mailto keeps only its text, and quotes in a URL stay inside href', () => {
    expect(toTelegramHtml('[click](javascript:alert(1))')).toBe('click');
    const html = toTelegramHtml('[x](https://e.com/"onclick="y)');
    expect(html).toBe('<a href="https://e.com/&quot;onclick=&quot;y">x</a>');
    expect(parseTelegramHtml(html).entities).toEqual([
      { type: 'text_link', offset: 0, length: 1, url: 'https://e.com/"onclick="y' },
    ]);
  });

  test('markers that do not pair stay as text: snake_case, 2 * 3, crossing and unclosed ones', () => {
    expect(toTelegramHtml('snake_case_name и 2 * 3 * 4')).toBe('snake_case_name и 2 * 3 * 4');
    expect(toTelegramHtml('**a *b** c*')).toBe('<b>a *b</b> c*');
    expect(toTelegramHtml('\\*not italic\\*')).toBe('*not italic*');
  });

  test('while streaming, an unclosed fence is closed and an unclosed ** stays literal', () => {
    expect(toTelegramHtml('Смотрите:\n```python\nprint(1 < 2)')).toBe(
      'Смотрите:\n<pre><code class="language-python">print(1 &lt; 2)</code></pre>',
    );
    expect(toTelegramHtml('Это **важно')).toBe('Это **важно');
    expect(toTelegramHtml('См. [доку](https://exa')).toBe('См. [доку](https://exa');
  });

  test('every prefix of a streamed answer is HTML Telegram accepts', () => {
    const answer =
      '# План\n\n**Шаг 1.** Установите `node` & npm:\n```bash\nnpm i <pkg> && echo "ok"\n```\n' +
      '> Внимание: *не* запускайте от root\n\n- [сайт](https://nodejs.org)\n- ~~старое~~ __новое__ ***всё***';
    for (let end = 0; end <= answer.length; end++)
      expect(() => visible(toTelegramHtml(answer.slice(0, end)))).not.toThrow();
  });

  test('500 random hostile mixes of markdown, HTML and entities all give HTML Telegram accepts', () => {
    const next = random(42);
    for (let i = 0; i < 500; i++) {
      const markdown = hostileMarkdown(next, 40);
      const html = toTelegramHtml(markdown);
      expect(() => parseTelegramHtml(html)).not.toThrow();
    }
  });

  test('60 000-character lines of markers that never pair convert in linear time, without deep recursion', () => {
    const started = Date.now();
    for (const line of [
      'x' + '*'.repeat(60_000),
      'x ' + '_a '.repeat(20_000),
      'x' + '`a ``'.repeat(12_000),
      '[a'.repeat(30_000),
    ]) {
      expect(() => visible(toTelegramHtml(line))).not.toThrow();
    }
    // Quadratic scanning took about 10 s here; linear takes well under one.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test('escapeHtml escapes &, <, > and quotes', () => {
    expect(escapeHtml('a & b < c > d "e"')).toBe('a &amp; b &lt; c &gt; d &quot;e&quot;');
  });
});

/** Every part fits and is valid on its own; together they hold all the visible text. */
function expectValidSplit(html: string, parts: string[], limit: number): void {
  for (const part of parts) {
    expect(part.length).toBeLessThanOrEqual(limit);
    expect(() => parseTelegramHtml(part)).not.toThrow();
    expect(part).not.toMatch(/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/);
  }
  expect(withoutSpace(parts.map(visible).join(''))).toBe(withoutSpace(visible(html)));
}

describe('splitTelegramHtml', () => {
  test('a short message is one part, unchanged', () => {
    const html = toTelegramHtml('Привет, **мир**!');
    expect(splitTelegramHtml(html)).toEqual([html]);
  });

  test('a 10 000-character answer is split at paragraph boundaries into parts of at most 4096', () => {
    const paragraph = (i: number) => `**Раздел ${i}.** ${'Текст абзаца с & и < знаками. '.repeat(12)}`.trim();
    const markdown = Array.from({ length: 28 }, (_, i) => paragraph(i)).join('\n\n');
    const html = toTelegramHtml(markdown);
    expect(html.length).toBeGreaterThan(10_000);
    const parts = splitTelegramHtml(html);
    expect(parts.length).toBe(Math.ceil(html.length / 4096));
    expectValidSplit(html, parts, 4096);
    for (const part of parts) expect(part).toMatch(/^<b>Раздел \d+\.<\/b>.*знаками\.$/s);
  });

  test('an over-long code block becomes several <pre> blocks, each closed and reopened with its language', () => {
    const code = Array.from({ length: 400 }, (_, i) => `console.log(${i} < limit && "x");`).join('\n');
    const html = toTelegramHtml(`Вот код:\n\`\`\`js\n${code}\n\`\`\``);
    const parts = splitTelegramHtml(html);
    expect(parts.length).toBeGreaterThan(2);
    expectValidSplit(html, parts, 4096);
    for (const part of parts.slice(1)) {
      expect(part.startsWith('<pre><code class="language-js">console.log(')).toBe(true);
      expect(part.endsWith('&quot;);</code></pre>')).toBe(true);
    }
  });

  test('a single huge word in bold is cut anywhere but every part keeps the bold', () => {
    const html = `<b>${'я'.repeat(10_000)}</b>`;
    const parts = splitTelegramHtml(html, 4096);
    expect(parts.map((part) => part.length)).toEqual([4096, 4096, 1829]);
    for (const part of parts) expect(part).toMatch(/^<b>я+<\/b>$/);
  });

  test('entities, tags and emoji are never cut, even with a small limit', () => {
    const html = toTelegramHtml(`${'&<>"'.repeat(50)} [ссылка](https://example.com/?a=1&b=2) ${'😀'.repeat(60)}`);
    const parts = splitTelegramHtml(html, 100);
    expectValidSplit(html, parts, 100);
    expect(parts.some((part) => part.includes('<a href="https://example.com/?a=1&amp;b=2">ссылка</a>'))).toBe(true);
  });

  test('random hostile answers of 10 000 characters split into valid parts of at most 4096', () => {
    const next = random(7);
    for (let i = 0; i < 20; i++) {
      const html = toTelegramHtml(hostileMarkdown(next, 2_500));
      expectValidSplit(html, splitTelegramHtml(html), 4096);
    }
  });
});

describe('a streaming preview', () => {
  test.each([
    ['🧪 **Тестовый ', '🧪 <b>Тестовый</b>'],
    ['Задайте `LLM_API', 'Задайте <code>LLM_API</code>'],
    ['**Готово** и `код` ', '<b>Готово</b> и <code>код</code>'],
  ])('%s shows the bold and code it has opened as the final answer will', (partial, html) => {
    expect(toTelegramHtml(closeOpenInline(partial))).toBe(html);
  });
});
