// The product's processes as deploy builds them: each entry's TypeScript bundled by esbuild, our
// workspaces inlined, npm packages left to node_modules.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { buildWeb, externalPackages } from '../../deploy/build.mjs';
import { ROOT } from './processes.mjs';

/** The entry of the gateway or of a service, by its name in the route table. */
export const mainOf = (name) => (name === 'gateway' ? 'gateway/src/main.ts' : `services/${name}/src/main.ts`);

/**
 * Bundles `entries` ({ name: 'path/to/entry.ts' }) into node_modules/.cache/gpt-bench/<bench>/ —
 * inside node_modules so the external packages resolve from the repository's — and returns
 * { name: bundle file }. Apart from deploy's dist/, so a bench never replaces what runs elsewhere.
 */
export async function bundle(bench, entries) {
  const dir = path.join(ROOT, 'node_modules', '.cache', 'gpt-bench', bench);
  await mkdir(dir, { recursive: true });
  const files = Object.fromEntries(Object.keys(entries).map((name) => [name, path.join(dir, `${name}.mjs`)]));
  await Promise.all(
    Object.entries(entries).map(([name, entry]) =>
      esbuild.build({
        entryPoints: [path.join(ROOT, entry)],
        outfile: files[name],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node24',
        logLevel: 'warning',
        plugins: [externalPackages],
      }),
    ),
  );
  return files;
}

/** bundle() of the gateway's and the named services' main.ts. */
export function bundleMains(bench, names) {
  return bundle(bench, Object.fromEntries(names.map((name) => [name, mainOf(name)])));
}

/** Builds the web app (web/dist, which the gateway serves pages from) unless it is built: a fresh clone has none. */
export function requireWebBuild() {
  if (existsSync(path.join(ROOT, 'web', 'dist', 'index.html'))) return;
  console.log('web/dist is not built: building the web app (node deploy/build.mjs web)…');
  buildWeb();
}
