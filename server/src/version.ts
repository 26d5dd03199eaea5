import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The release: the root package.json's version, else the server package's (the root has none yet). */
export function serverVersion(): string {
  const root = require('../../package.json') as { version?: string };
  return root.version ?? (require('../package.json') as { version: string }).version;
}
