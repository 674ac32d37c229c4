import path from 'node:path';
import { defineConfig } from 'vitest/config';

const server = {
  // Real servers, databases and processes per file on a loaded machine: generous limits.
  testTimeout: 20_000,
  hookTimeout: 30_000,
};

export default defineConfig({
  test: {
    // Three files at once on two cores: a file spends part of its time waiting (PostgreSQL, Chromium, SMTP,
    // child processes), and with two workers the CPU sat idle meanwhile. Whole suite on a quiet 2-core
    // machine, 29 November 2026: 435 s with 2 workers, 351 s with 3 (CPU idle 6.5 %), all files passing.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'server',
          // The files of a worker share their modules instead of importing the server afresh each (about a
          // third of a file's time went to imports); each file still owns its databases, apps and ports.
          isolate: false,
          include: [
            'server/**/*.test.ts',
            'db/**/*.test.ts',
            'bot/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          ...server,
        },
      },
      {
        // Real Chromium (Debian's) against the real server and the built bundle: see miniapp/e2e/. The app's
        // aliases, for the tests that import its modules (deckFilterReaders holds its zod-free readers to the contract).
        resolve: {
          alias: {
            '@contract': path.join(import.meta.dirname, 'server', 'contract'),
            '@locales': path.join(import.meta.dirname, 'locales'),
          },
        },
        test: {
          name: 'browser',
          // As the server project: a worker's files share their modules (the import was half a small file's time);
          // each file still starts its own site, contexts and people.
          isolate: false,
          include: ['miniapp/e2e/**/*.e2e.test.ts'],
          globalSetup: ['miniapp/e2e/globalSetup.ts'],
          // After each file: what a failed file left open in the worker's Chromium (chromium.ts closeLeftContexts).
          setupFiles: ['miniapp/e2e/closeLeftContexts.ts'],
          // Generous: two cores run a server suite and Chromium side by side in CI.
          testTimeout: 120_000,
          hookTimeout: 90_000,
          // A page still loading on a busy machine must not fail a poll after Vitest's default second.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
