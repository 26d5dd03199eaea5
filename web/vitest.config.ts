import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const commonEntry = fileURLToPath(new URL('../common/src/index.ts', import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: { alias: [{ find: /^@nimbus\/common$/, replacement: commonEntry }] },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    testTimeout: 15_000,
  },
});
