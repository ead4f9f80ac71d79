// Builds what runs: one esbuild bundle per process (workspace code inlined, npm packages left to node_modules) and the web app.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const bundles = [
  ['gateway/src/main.ts', 'gateway/dist/main.js'],
  ...['auth', 'content', 'billing', 'chat-history', 'metrics', 'bot'].map((name) => [
    `services/${name}/src/main.ts`,
    `services/${name}/dist/main.js`,
  ]),
  ['deploy/src/embedded.ts', 'deploy/dist/embedded.js'],
  // `npm run metrics:rebuild`: recomputes the dashboard's projections from the metrics event log.
  ['services/metrics/src/rebuild.ts', 'services/metrics/dist/rebuild.js'],
];

/** Our workspaces (@gpt/*) are TypeScript sources and get bundled; every other package stays external. */
export const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@gpt/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildServers() {
  await Promise.all(
    bundles.map(([entry, outfile]) =>
      esbuild.build({
        entryPoints: [path.join(root, entry)],
        outfile: path.join(root, outfile),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node24',
        sourcemap: true,
        logLevel: 'warning',
        plugins: [externalPackages],
      }),
    ),
  );
  // esbuild's service process would otherwise stay beside the product `npm start` runs next.
  await esbuild.stop();
}

/**
 * The web app checks API answers against the contracts' schemas in every build but a production one
 * (`NODE_ENV=production`, as the image builds), where it only casts them (docs/architecture.md, Web app).
 */
export function buildWeb() {
  const checkApiAnswers = process.env.NODE_ENV !== 'production';
  execFileSync('npm', ['run', 'build', '-w', '@gpt/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CHECK_API_ANSWERS: String(checkApiAnswers) },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const only = process.argv[2];
  if (only !== 'web') await buildServers();
  if (only !== 'servers') buildWeb();
}
