/**
 * How the test workers load TypeScript (docs/architecture.md, Tests): `npm run test:jest` starts jest with
 * `--import` of this file, and its workers inherit the flag. Node's module hooks compile `.ts` and `.tsx`
 * with swc (`__CHECK_API_ANSWERS__` on, as in web/vite.config.ts's test build), find
 * extensionless and folder imports the way TypeScript's bundler resolution does, resolve the web app's
 * `@/` alias (web/tsconfig.json `paths`) and give `@jest/globals` as `globals.mjs`. A module is compiled
 * once per worker and shared by the test files that worker runs.
 */
import { readFileSync, statSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from '@swc/core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const web = path.join(root, 'web');
const webSource = path.join(web, 'src');
const jestGlobals = new URL('./globals.mjs', import.meta.url).href;
const TYPESCRIPT = /\.tsx?$/;

const isFile = (file) => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
const fileOf = (url) => fileURLToPath(url.split('?')[0]);

/** The file an import without an extension means: itself, with `.ts` or `.tsx`, or its folder's index. */
function completed(base) {
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find(isFile);
}

function compiled(file) {
  return transformSync(readFileSync(file, 'utf8'), {
    filename: file,
    sourceMaps: 'inline',
    jsc: {
      parser: { syntax: 'typescript', tsx: file.endsWith('.tsx') },
      target: 'es2023',
      transform: {
        react: { runtime: 'automatic' },
        optimizer: { globals: { vars: { __CHECK_API_ANSWERS__: 'true' } } },
      },
    },
    module: { type: 'es6' },
  }).code;
}

// Stack traces point at the TypeScript lines.
process.setSourceMapsEnabled(true);

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === '@jest/globals') return { url: jestGlobals, shortCircuit: true };
    const parent = context.parentURL?.startsWith('file:') ? fileOf(context.parentURL) : undefined;
    let base;
    if (specifier.startsWith('@/') && parent?.startsWith(web + path.sep))
      base = path.join(webSource, specifier.slice(2));
    else if (/^\.\.?\//.test(specifier) && parent && TYPESCRIPT.test(parent))
      base = path.resolve(path.dirname(parent), specifier);
    const file = base === undefined ? undefined : completed(base);
    if (file) return { url: pathToFileURL(file).href, shortCircuit: true };
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (!url.startsWith('file:')) return nextLoad(url, context);
    const file = fileOf(url);
    if (TYPESCRIPT.test(file)) return { format: 'module', source: compiled(file), shortCircuit: true };
    // A component's stylesheet is the browser's business: Node gets an empty module for it.
    if (file.endsWith('.css')) return { format: 'module', source: '', shortCircuit: true };
    return nextLoad(url, context);
  },
});
