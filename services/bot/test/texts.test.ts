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
