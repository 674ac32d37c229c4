// Type-aware linting where it matters most, in the server (floating promises, unsafe `any`): server/, db/,
// bot/. The app, the scripts and the browser tests get the same rules that need no types, so the lint builds
// one TypeScript program, not three (the type check builds each once anyway).
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { importBoundaries, importResolverSettings } from './importBoundaries.js';

const typeAware = ['server/**/*.ts', 'db/**/*.ts', 'bot/**/*.ts'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'data/',
      'miniapp/dist/',
      'miniapp/public/',
      'artifacts/',
      'coverage/',
      '.build/',
      '.build-test-*/',
      'eslint.config.js',
      'importBoundaries.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...tseslint.configs.strictTypeChecked.map((config) => ({ ...config, files: typeAware })),
  {
    files: typeAware,
    languageOptions: {
      parserOptions: {
        // The root tsconfig (Node) holds every type-checked file.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // The root tsconfig has the DOM library, for the browser tests it holds (miniapp/e2e): the names only a
    // page has must not type-check in code that runs in Node.
    files: ['server/**/*.ts', 'db/**/*.ts', 'bot/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'location',
          'history',
          'localStorage',
          'sessionStorage',
          'name',
          'event',
          'self',
          'top',
          'parent',
          'status',
          'screen',
          'origin',
        ].map((name) => ({
          name,
          message: 'A browser global: server, db, bot and scripts run in Node.',
        })),
      ],
    },
  },
  {
    // The plain JavaScript that runs before anything is compiled (scripts/start.mjs): TypeScript checks its
    // names (checkJs in tsconfig.json), as typescript-eslint has it do for .ts files.
    files: ['**/*.mjs'],
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['miniapp/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  // DESIGN.md's arrows (importBoundaries.js): a wrong import or an import circle fails the lint.
  {
    plugins: { 'import-x': importX },
    settings: importResolverSettings,
  },
  ...importBoundaries,
);
