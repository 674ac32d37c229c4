import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compressPlugin } from './compressPlugin.ts';
import { localesPlugin } from './localesPlugin.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

/**
 * The app lives in miniapp/ but imports the shared contract (server/contract) and the locales (locales/)
 * from the repository root. During `vite dev` the API is the Koa server on :8080 (npm start).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), localesPlugin(path.join(repoRoot, 'locales')), compressPlugin()],
  // The same aliases as tsconfig.json's `paths`: the shared contract and texts without ../../../../.
  resolve: {
    alias: {
      '@contract': path.join(repoRoot, 'server', 'contract'),
      '@locales': path.join(repoRoot, 'locales'),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // One small entry: routes are lazy chunks, vendor code is split by what each route needs.
    modulePreload: { polyfill: false },
  },
  server: {
    fs: { allow: [repoRoot] },
    proxy: { '/api': 'http://localhost:8080' },
  },
});
