import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `/api` goes in development: the gateway started by `npm start`. */
const apiTarget = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
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
});
