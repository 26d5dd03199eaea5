import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const commonEntry = fileURLToPath(new URL('../common/src/index.ts', import.meta.url));
// The app bundles tus-js-client's browser build; its Node build (what jsdom would get) keeps no
// upload URLs, so the tests use the browser one too.
const tusBrowserEntry = join(dirname(createRequire(import.meta.url).resolve('tus-js-client/package.json')), 'lib.esm/browser/index.js');

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^@nimbus\/common$/, replacement: commonEntry },
      { find: /^tus-js-client$/, replacement: tusBrowserEntry },
    ],
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    testTimeout: 15_000,
    // jsdom files are independent and mostly CPU: one per core (the default leaves one core idle).
    maxWorkers: 2,
  },
});
