import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, freePort, killLeftRunning, startServer, waitFor, type ServerProcess } from './process.js';

/** Loaded into the server first: on SIGUSR2 it prints the packages loaded through `require` so far. */
const PROBE = `
import { createRequire } from 'node:module';
process.on('SIGUSR2', () => {
  const files = Object.keys(createRequire(import.meta.url).cache);
  const packages = new Set(files.map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file)?.[1]).filter(Boolean));
  process.stdout.write('LOADED ' + JSON.stringify([...packages]) + '\\n');
});
`;

/** What a started server has loaded, and so keeps in memory for as long as it runs. */
describe('the built server at rest', { timeout: 120_000 }, () => {
  let dir: string;
  let server: ServerProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'nimbus-loaded-'));
  });
  afterEach(async () => {
    await killLeftRunning(server);
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function packagesAtRest(): Promise<string[]> {
    const probe = path.join(dir, 'probe.mjs');
    writeFileSync(probe, PROBE);
    const port = await freePort();
    server = startServer(dir, cleanEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'data', NODE_OPTIONS: `--import=${probe}` }));
    const s = server;
    await waitFor(s, 'GET /health', async () => ((await fetch(`http://127.0.0.1:${port}/health`)).ok ? true : undefined));
    s.child.kill('SIGUSR2');
    const line = await waitFor(s, 'the probe', async () => /^LOADED (.*)$/m.exec(s.output())?.[1]);
    return JSON.parse(line) as string[];
  }

  it('has not loaded Fastify’s schema compilers (Ajv, fast-json-stringify): route schemas only document the API', async () => {
    const packages = await packagesAtRest();
    expect(packages).toContain('fastify');
    expect(
      packages.filter((name) => ['ajv', 'ajv-formats', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'].includes(name)),
    ).toEqual([]);
  });
});
