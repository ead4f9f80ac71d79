import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@jest/globals';

const SRC = join(import.meta.dirname, '../src');
/** Where what the bot sends a Telegram user is made: each says it through telegram/texts.ts. */
const SPEAKERS = ['features', 'messaging', 'telegram'];
const TEXTS = 'telegram/texts.ts';
/** They answer HTTP callers (Telegram's webhook), not a person in a chat. */
const HTTP_ANSWERS = ['telegram/telegram.ts', 'telegram/webhook.ts'];
const CYRILLIC = /[\u0400-\u04ff]/;

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

/** The code of a line without its comment (a line comment, or a line of a block comment). */
const codeOf = (line: string) => (/^\s*(\*|\/\*|\/\/)/.test(line) ? '' : line.replace(/\s\/\/.*$/, ''));

test('every Russian word the bot sends a user is in telegram/texts.ts', () => {
  const offenders = SPEAKERS.flatMap((folder) => sourceFiles(join(SRC, folder)))
    .filter((file) => ![TEXTS, ...HTTP_ANSWERS].includes(relative(SRC, file)))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ where: `${relative(SRC, file)}:${index + 1}`, code: codeOf(line) }))
        .filter(({ code }) => CYRILLIC.test(code)),
    );
  expect(offenders).toEqual([]);
});

/**
 * A one-line message ends with a full stop (or «?», «!», «…»), as the site's texts do; one that ends with a
 * command or an example to copy (/model, <code>…</code>) is left as it is.
 */
test('every one-sentence message of texts.ts ends with a full stop', async () => {
  const { texts } = await import('../src/telegram/texts');
  const ends = /([.?!…]|[.?!…]<\/[a-z]+>|\/[a-z]+|<\/code>)$/;
  const unfinished = Object.entries(texts)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && CYRILLIC.test(entry[1]))
    .filter(([, text]) => !text.trim().includes('\n'))
    .filter(([, text]) => !ends.test(text.trim()))
    .map(([name, text]) => `${name}: ${text}`);
  expect(unfinished).toEqual([]);
});
