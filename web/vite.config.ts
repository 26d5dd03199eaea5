import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

/**
 * react-router's package exports only its development build, which keeps the dev-time warnings;
 * a production bundle takes the production build it ships beside it.
 */
const reactRouterProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ mode }) => ({
  plugins: [react(), tailwindcss(), sideEffectFreeCommon()],
  resolve: {
    alias: [
      { find: /^@nimbus\/common$/, replacement: commonEntry },
      ...(mode === 'production' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // Browsers preload modules natively (one that cannot still loads each module, only without the head start).
    modulePreload: { polyfill: false },
    // Slower than esbuild's minifier, and about 4 KiB (gzip) less JavaScript for /home.
    minify: 'terser',
  },
  server: {
    proxy: { '/user-service': apiTarget, '/file-service': apiTarget, '/folder-service': apiTarget, '/health': apiTarget },
  },
}));
