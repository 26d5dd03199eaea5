import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool, WorkerTimeoutError } from '../../src/workers/pool.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/tasks.worker.mjs', import.meta.url));
type Echo = { echo: unknown; thread: number };

describe('the worker pool', () => {
  let pool: WorkerPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('runs tasks on at most its number of threads, starting them on first use', async () => {
    pool = new WorkerPool({ file: FIXTURE, threads: 2 });
    expect(pool.threads).toBe(0);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => pool!.run<Echo>({ echo: i, sleepMs: 20 })));
    expect(results.map((r) => r.echo)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(results.map((r) => r.thread)).size).toBeLessThanOrEqual(2);
    expect(pool.threads).toBeLessThanOrEqual(2);
  });

  it('keeps no timing histograms', async () => {
    pool = new WorkerPool({ file: FIXTURE, threads: 1 });
    await pool.run<Echo>({ echo: 1 });
    const { piscina } = pool as unknown as { piscina: Piscina };
    expect(piscina.histogram.runTime).toBeUndefined();
    expect(piscina.histogram.waitTime).toBeUndefined();
  });

  it('a task that throws rejects alone; the next one runs', async () => {
    pool = new WorkerPool({ file: FIXTURE, threads: 1 });
    const [failed, fine] = await Promise.allSettled([pool.run({ fail: 'bad input' }), pool.run<Echo>({ echo: 'next' })]);
    expect(failed).toMatchObject({ status: 'rejected', reason: { message: 'bad input' } });
    expect(fine).toMatchObject({ status: 'fulfilled', value: { echo: 'next' } });
  });

  it('a stuck task past its deadline rejects with WorkerTimeoutError, and the pool carries on', async () => {
    pool = new WorkerPool({ file: FIXTURE, threads: 1 });
    const stuck = await pool.run<Echo>({ echo: 'first' });
    await expect(pool.run({ hang: true }, { timeoutMs: 100 })).rejects.toBeInstanceOf(WorkerTimeoutError);
    const after = await pool.run<Echo>({ echo: 'after' });
    expect(after.echo).toBe('after');
    // The stuck thread was ended and replaced.
    expect(after.thread).not.toBe(stuck.thread);
  });

  it('close rejects queued and running work and ends every thread', async () => {
    pool = new WorkerPool({ file: FIXTURE, threads: 1 });
    const running = pool.run({ hang: true });
    const queued = pool.run({ echo: 'never' });
    const outcomes = Promise.allSettled([running, queued]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.close();
    expect((await outcomes).map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(pool.threads).toBe(0);
  });

  it('idle threads do not keep the process alive', () => {
    const script = `
      const { WorkerPool } = await import(${JSON.stringify(new URL('../../dist/workers/pool.js', import.meta.url).href)});
      const pool = new WorkerPool({ file: ${JSON.stringify(FIXTURE)}, threads: 2 });
      console.log(JSON.stringify(await pool.run({ echo: 'done' })));
    `;
    const started = Date.now();
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(result.stdout).toContain('"echo":"done"');
    expect(result.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
