import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'db/**/*.test.ts', 'bot/**/*.test.ts', 'scripts/**/*.test.ts'],
    // Argon2id at 19 MiB per hash and real servers per file: keep parallelism to the machine's two cores.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
