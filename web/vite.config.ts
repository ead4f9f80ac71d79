import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `/api` goes in development: the gateway started by `npm start`. */
const apiTarget = 'http://localhost:8080';

export default defineConfig(({ command }) => ({
  plugins: [react()],
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
