import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The short form of `npm run bench load`: the same simulated users (browse, page, search, upload,
// download whole and by Range, thumbnails, links, share links, rename, move, trash, restore), fewer
// of them for less time, against the built server in its own process. The script exits non-zero on
// any 5xx, unexpected 4xx, connection error, wrong byte or server down at the end.
const script = path.resolve(import.meta.dirname, '../../bench/load.bench.mjs');
const skipPostgres = process.env.NIMBUS_SKIP_POSTGRES === '1';

async function runLoad(topology: 'sqlite' | 'pg-s3-2') {
  const env = { ...process.env, LOAD_USERS: '20', LOAD_SECONDS: '15', LOAD_SEED: '20261125', LOAD_TOPOLOGY: topology };
  const result = await promisify(execFile)(process.execPath, [script], { env, maxBuffer: 16 * 1024 * 1024 }).catch(
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? '',
      failed: err.code,
    }),
  );
  return { output: `${result.stdout}\n${result.stderr}`, failed: 'failed' in result ? result.failed : 0 };
}

describe('load, short form: simulated users against a server process', () => {
  it('one server on SQLite and local disk: every answer right, none 5xx', { timeout: 120_000 }, async () => {
    const { output, failed } = await runLoad('sqlite');
    expect(failed, output).toBe(0);
    expect(output).toMatch(/errors {7}0 \(/);
    expect(Number(/requests {5}(\d+)/.exec(output)?.[1])).toBeGreaterThan(100);
  });

  it.skipIf(skipPostgres)('two servers sharing PostgreSQL and S3: every answer right, none 5xx', { timeout: 180_000 }, async () => {
    const { output, failed } = await runLoad('pg-s3-2');
    expect(failed, output).toBe(0);
    expect(output).toMatch(/errors {7}0 \(/);
    expect(Number(/requests {5}(\d+)/.exec(output)?.[1])).toBeGreaterThan(100);
  });
});
