import { fileURLToPath } from 'node:url';

import type * as Routes from '@gpt/contracts/routes';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, runnerImport } from 'vite';

/** Where `/api` goes in development: the gateway started by `npm start`. */
const apiTarget = 'http://localhost:8080';

/**
 * The app calls routes by id (`apiPath`), which needs each route's id and path only. In a build, the list in
 * contracts/src/routes.ts is cut down to those two fields, so the bundle does not carry the schemas, summaries
 * and descriptions the services and the OpenAPI document use (docs/architecture.md, Web app).
 */
function routeIdsAndPaths(): Plugin {
  const routesModule = fileURLToPath(new URL('../contracts/src/routes.ts', import.meta.url));
  const start = 'export const apiRoutes = [';
  const end = '] as const satisfies readonly ApiRoute[];';
  let list: { id: string; path: string }[] = [];
  return {
    name: 'route-ids-and-paths',
    apply: 'build',
    enforce: 'pre',
    // The contracts are TypeScript: Vite's module runner reads them (the config itself is loaded by plain Node).
    async buildStart() {
      const { module } = await runnerImport<typeof Routes>(routesModule, { configFile: false, logLevel: 'warn' });
      list = module.apiRoutes.map((route) => ({ id: route.id, path: route.path }));
    },
    transform(code, id) {
      if (id !== routesModule) return null;
      const from = code.indexOf(start);
      const to = code.indexOf(end, from);
      if (from < 0 || to < 0) throw new Error(`${routesModule}: the apiRoutes list is not where this plugin cuts it`);
      return `${code.slice(0, from)}export const apiRoutes = ${JSON.stringify(list)};${code.slice(to + end.length)}`;
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), routeIdsAndPaths()],
  // Whether the app checks each API answer against its contract schema (web/src/lib/api-client.ts): always on the dev
  // server; in a build when deploy/build.mjs asks for it (every build but one made with NODE_ENV=production).
  define: { __CHECK_API_ANSWERS__: JSON.stringify(command === 'serve' || process.env.CHECK_API_ANSWERS === 'true') },
  // `@/` points at web/src (declared once, in tsconfig.json `paths`).
  resolve: { tsconfigPaths: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed file names under /assets/: the gateway caches them as immutable.
    assetsDir: 'assets',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The framework changes rarely: its own long-cached chunk, apart from the app code.
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@tanstack[\\/]react-query|@tanstack[\\/]query-core)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  preview: {
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
}));
