import { join, relative } from 'node:path';
import { expect, test } from '@jest/globals';
import { linesOf, sourceFiles, SRC } from './support/source-files';

/** Where what the bot sends a Telegram user is made: each says it through telegram/texts.ts. */
const SPEAKERS = ['features', 'messaging', 'telegram'];
const TEXTS = 'telegram/texts.ts';
/** They answer HTTP callers (Telegram's webhook), not a person in a chat. */
const HTTP_ANSWERS = ['telegram/telegram.ts', 'telegram/webhook.ts'];
const CYRILLIC = /[\u0400-\u04ff]/;

/** The code of a line without its comment (a line comment, or a line of a block comment). */
const codeOf = (line: string) => (/^\s*(\*|\/\*|\/\/)/.test(line) ? '' : line.replace(/\s\/\/.*$/, ''));

test('every Russian word the bot sends a user is in telegram/texts.ts', () => {
  const files = SPEAKERS.flatMap((folder) => sourceFiles(join(SRC, folder))).filter(
    (file) => ![TEXTS, ...HTTP_ANSWERS].includes(relative(SRC, file)),
  );
  expect(linesOf(files, (line) => CYRILLIC.test(codeOf(line)))).toEqual([]);
});
