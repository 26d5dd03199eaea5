import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'artifacts/**', '.test-results/**'] },
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
    files: ['server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@nimbus/web*', '**/web/src/**'] }] },
  },
  {
    files: ['scripts/**', 'e2e/**', '**/*.config.*', 'web/bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
