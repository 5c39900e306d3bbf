import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from './eslint-rules/boundaries.js';
import importCycles from './eslint-rules/import-cycles.js';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'packages/cli/src/generated/**',
      '**/node_modules/**',
      'apps/api/migrations/**',
      'test-results/**',
      'playwright-report/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { project: ['./tsconfig.tests.json', './apps/console/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Fastify plugins and port implementations are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
      // Services are closures, not classes: passing their functions around is safe.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Small files and functions: a file over 400 lines or a function over 300 is cut by topic.
    files: [
      'apps/api/**/*.{ts,tsx,js,mjs}',
      'apps/console/**/*.{ts,tsx,js,mjs}',
      'packages/contract/**/*.{ts,js,mjs}',
      'e2e/**/*.{ts,js,mjs}',
      'bench/**/*.{ts,js,mjs}',
      'scripts/**/*.{ts,js,mjs}',
    ],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // The allowed arrows between modules, adapters, features and shared code (docs/architecture.md).
    files: ['apps/api/src/**/*.ts', 'apps/console/src/**/*.{ts,tsx}'],
    plugins: { kumo: boundaries },
    rules: { 'kumo/boundaries': 'error' },
  },
  {
    // No runtime import circle between files, modules, adapters or features (type-only imports do not count).
    files: ['apps/api/src/**/*.ts', 'apps/console/src/**/*.{ts,tsx}', 'packages/contract/src/**/*.ts'],
    plugins: { 'kumo-cycles': importCycles },
    rules: { 'kumo-cycles/import-cycles': 'error' },
  },
  {
    files: ['apps/console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // One way to read the cache: lib/use-query.ts renders answers as transitions (decision 0052).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tanstack/react-query',
              importNames: ['useQuery', 'useInfiniteQuery', 'useSuspenseQuery', 'useQueries'],
              message: 'Use useQuery and useInfiniteQuery from lib/use-query.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/console/src/lib/use-query.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Tests read JSON bodies loosely; the assertions check their shape.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'apps/api/test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
