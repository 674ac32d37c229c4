/**
 * DESIGN.md's dependency arrows as lint rules, so the next wrong arrow fails `npm run lint`:
 *   db imports nothing of ours; server/contract imports only zod/mini (and other contract files);
 *   the app (miniapp/src) imports only server/contract and locales; nothing under server/ imports bot/
 *   but the composition root (server/main.ts) and tests that drive the bot; no import circles anywhere.
 * Kept apart from eslint.config.js so its own test (server/importBoundaries.test.ts) lints wrong imports
 * with exactly these rules. One block per file set: in a flat config the last block that matches a file
 * decides a rule's options, so zones for the same files must sit in the same block.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createNodeResolver } from 'eslint-plugin-import-x';
import { importCycles } from './importCycles.js';

const root = import.meta.dirname;

/**
 * How the import rules find files: .ts imports as written, and the app's aliases (miniapp/vite.config.ts,
 * miniapp/tsconfig.json) so an import through `@contract/…` is judged where it really points.
 */
export const importResolverSettings = {
  'import-x/extensions': ['.ts', '.tsx', '.js'],
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  'import-x/resolver-next': [
    createNodeResolver({
      extensions: ['.ts', '.tsx', '.js', '.json'],
      alias: { '@contract': [path.join(root, 'server', 'contract')], '@locales': [path.join(root, 'locales')] },
    }),
  ],
};

const onlyContract = 'server/contract imports only zod: it is the API contract the app shares.';
const onlyZodMini =
  "server/contract imports zod as 'zod/mini': the app checks answers with these schemas on its first screens, and full zod would add about 20 kB to every first load (bench/frontend.ts).";
const appImports = 'The app imports only server/contract and locales (DESIGN.md section 2).';

const features = path.join(root, 'server', 'features');
/** Every feature's face: the one file of a feature that other features and the bot may import. */
const faces = path.join(features, '*', 'index.ts');
const oneFace =
  "A feature imports another feature only through its face, server/features/<name>/index.ts: export what you need from there (a repository's function too; the face re-exports it).";
/**
 * One zone per feature (read from the folder, so a new feature is covered): its files, tests included, may
 * import their own feature's files freely, and another feature only through that feature's face.
 */
const featureZones = readdirSync(features, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map(({ name }) => ({
    target: path.join(features, name, '**', '*'),
    from: path.join(features, `!(${name})`, '**', '*'),
    except: [faces],
    message: oneFace,
  }));

/**
 * What the bot may take from the server: the features' faces, the API contract, and two leaf modules it
 * shares on purpose: logger.ts (one log format for both processes) and safeEqual.ts (the webhook secret
 * compared in constant time, as the server compares its tokens). Anything else the bot needs goes into a face.
 */
// Every exception a glob: import-x refuses plain paths beside a glob `from`.
const botMayImport = [
  faces,
  path.join(root, 'server', 'contract', '**', '*'),
  path.join(root, 'server', '@(logger|safeEqual).ts'),
];
const botImports =
  'The bot imports from server/ only the faces (server/features/<name>/index.ts), server/contract, logger.ts and safeEqual.ts.';
const botZone = (except) => ({
  target: path.join(root, 'bot', '**', '*'),
  from: path.join(root, 'server', '**', '*'),
  except,
  message: botImports,
});

export const importBoundaries = [
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { iskra: importCycles },
    rules: {
      // Type-only imports count too: a circle of types is still two modules that cannot be read apart.
      // import-x/no-cycle always skips them, so importCycles.js is its copy that does not.
      'iskra/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './db',
              from: ['./server', './bot', './miniapp', './scripts', './bench', './locales'],
              message: 'db imports nothing of ours (DESIGN.md section 2).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/main.ts', '**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server',
              from: './bot',
              message:
                'The server never imports bot/: the composition root (server/main.ts) passes the bot what it needs.',
            },
            // Globs rather than './server' with an exception, which lets through a file inside the `from` zone.
            {
              target: './server/contract',
              from: ['./server/{features,http,mail,test,assets}/**/*', './server/*.ts'],
              message: onlyContract,
            },
            { target: './server/contract', from: ['./db', './miniapp', './scripts', './bench'], message: onlyContract },
            ...featureZones,
          ],
        },
      ],
    },
  },
  {
    // A feature's tests: the same faces rule (their own feature's internals stay open to them).
    files: ['server/features/**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: featureZones }] },
  },
  {
    files: ['bot/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [botZone(botMayImport)] }] },
  },
  {
    // The bot's tests drive a real server, so they may use the test helpers (server/test/) as well.
    files: ['bot/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            botZone([
              ...botMayImport,
              path.join(root, 'server', 'test', '**', '*'),
              path.join(root, 'server', 'mail', '**', '*'),
            ]),
          ],
        },
      ],
    },
  },
  {
    files: ['server/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: onlyZodMini }],
          patterns: [{ regex: '^zod/(?!mini$)', message: onlyZodMini }],
        },
      ],
    },
  },
  {
    files: ['miniapp/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './miniapp/src', from: './server', except: ['./contract'], message: appImports },
            { target: './miniapp/src', from: ['./db', './bot', './scripts', './bench'], message: appImports },
          ],
        },
      ],
    },
  },
];
