import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const commonEntry = fileURLToPath(new URL('../common/src/index.ts', import.meta.url));
const commonDir = fileURLToPath(new URL('../common/src/', import.meta.url));

/**
 * The shared package declares its schemas at module level; marking its modules side-effect free
 * lets the bundle keep only the constants and helpers the app really uses (no zod on the sign-in page).
 */
function sideEffectFreeCommon(): Plugin {
  return {
    name: 'nimbus:side-effect-free-common',
    transform(code, id) {
      if (id.startsWith(commonDir)) return { code, map: null, moduleSideEffects: false };
      return null;
    },
  };
}

const apiTarget = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss(), sideEffectFreeCommon()],
  resolve: { alias: [{ find: /^@nimbus\/common$/, replacement: commonEntry }] },
  build: { outDir: 'dist', assetsDir: 'assets', emptyOutDir: true },
  server: {
    proxy: { '/user-service': apiTarget, '/file-service': apiTarget, '/folder-service': apiTarget, '/health': apiTarget },
  },
});
