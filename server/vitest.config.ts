import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@nimbus/common': path.resolve(import.meta.dirname, '../common/src/index.ts') };
const integration = ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'];

/** Unit tests once; integration tests once per database (select with --project). */
export default defineConfig({
  resolve: { alias },
  test: {
    // Test files build their own apps and databases and share no module state, so they can
    // share one module cache per worker: importing the server once per file dominated the run.
    isolate: false,
    // Most files wait on databases, sockets and child processes rather than compute: two workers
    // on two cores finish the suite in about three quarters of the time one does.
    maxWorkers: 2,
    // Servers the tests start as processes inherit it: thousands of sign-ups and logins are hashed
    // at scrypt's lowest accepted cost (test/helpers/test-app.ts sets the same for in-process apps).
    env: { PASSWORD_HASH_COST: '10' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: integration } },
      { extends: true, test: { name: 'sqlite', include: integration, provide: { testDialect: 'sqlite' } } },
      { extends: true, test: { name: 'postgres', include: integration, provide: { testDialect: 'postgres' } } },
    ],
  },
});
