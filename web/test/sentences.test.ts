import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@jest/globals';

/**
 * What a toast or an error banner says under its title is a sentence and ends with a full stop (or «?», «!»,
 * «…»): the fallbacks of errorMessage() and the messages of toast.success / toast.error written in the code.
 */
const SRC = join(import.meta.dirname, '../src');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );

const SAID = [
  /errorMessage\((?:[^,()]|\([^()]*\))+,\s*(['`])((?:(?!\1).)*)\1\)/g,
  /toast\.(?:success|error)\(\s*'[^']*',\s*(['`])((?:(?!\1).)*)\1\s*\)/g,
  /const LOAD_FAILED = (['`])((?:(?!\1).)*)\1/g,
];

test('every message of a toast or an error banner written in web/src ends with a full stop', () => {
  const unfinished = sourceFiles(SRC).flatMap((file) => {
    const code = readFileSync(file, 'utf8');
    return SAID.flatMap((pattern) => [...code.matchAll(pattern)])
      .map((match) => match[2]!)
      .filter((text) => /[\u0400-\u04ff]/.test(text) && !/[.?!…]$/.test(text))
      .map((text) => `${relative(SRC, file)}: ${text}`);
  });
  expect(unfinished).toEqual([]);
});
