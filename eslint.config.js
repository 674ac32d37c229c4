// Type-aware linting: the rules that catch floating promises and unsafe `any` matter most in a server.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { importBoundaries, importResolverSettings } from './importBoundaries.js';

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
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked with its nearest tsconfig: the root one (Node), miniapp/ (DOM, JSX), miniapp/e2e/.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-confusing-void-expression': 'off',
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
