import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The bot's own source, for tests that hold it to a convention. */
export const SRC = join(import.meta.dirname, '../../src');

export const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

/** Each line of the files matching `offends`, as `path:line` from src/. */
export const linesOf = (files: string[], offends: (line: string) => boolean) =>
  files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, index) => ({ where: `${relative(SRC, file)}:${index + 1}`, line }))
      .filter(({ line }) => offends(line)),
  );
