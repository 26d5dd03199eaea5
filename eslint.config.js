import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'artifacts/**', '.test-results/**', 'server/eval/.real-media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.mjs', 'server/**', 'e2e/**', 'scripts/**'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['common/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@nimbus/server*', '@nimbus/web*', '**/server/**', '**/web/**', 'node:*'] }] },
  },
  {
    files: ['web/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@nimbus/server*', '**/server/**', 'node:*'] }] },
  },
  {
    // The drive API, item types and fixtures are shared from api/ and test/; other features reach
    // into the file browser only for the pieces it lends out, so features never import in circles.
    files: ['web/src/features/**'],
    ignores: ['web/src/features/browser/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '@nimbus/server*',
            '**/server/**',
            'node:*',
            '../browser/*',
            '!../browser/BrowserHost',
            '!../browser/DetailPanel',
            '!../browser/FileThumbnail',
          ],
        },
      ],
    },
  },
  {
    files: ['server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@nimbus/web*', '**/web/src/**'] }] },
  },
  {
    files: ['scripts/**', 'e2e/**', '**/*.config.*', 'web/bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
