import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['specs/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file boots its own server; two at a time keeps two cores busy without starving Chromium.
    maxWorkers: 2,
  },
});
