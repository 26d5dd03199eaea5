import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { ResumableStore } from '../../src/storage/resumable-store.js';
import { createFolder, listFiles } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { TestClock } from '../users/support.js';

const BASE = '/file-service/tus';
const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const meta = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

interface Harness extends TestApp {
  origin: string;
  clock: TestClock;
  account(): Promise<Account>;
}

interface Account {
  browser: TestBrowser;
  /** The headers a signed-in browser sends: its session cookie and `uuid`. */
  headers: Record<string, string>;
  call(
    method: string,
    url: string,
    headers?: Record<string, string>,
    body?: Buffer,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders }>;
}

async function start(overrides: Partial<Config> = {}): Promise<Harness> {
  const clock = new TestClock();
  const testApp = await createTestApp({ search: { enabled: false, embeddings: null }, ...overrides }, { clock });
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  return {
    ...testApp,
    origin,
    clock,
    async account() {
      const browser = new TestBrowser(testApp.app);
      await browser.signUp();
      const headers = { uuid: browser.browserId, cookie: `access-token=${browser.cookies.get('access-token')!.value}` };
      const call: Account['call'] = (method, url, extra = {}, body) =>
        new Promise((resolve, reject) => {
          const req = http.request(`${origin}${url}`, { method, headers: { ...headers, ...extra } }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
          });
          req.on('error', reject);
          req.end(body);
        });
      return { browser, headers, call };
    },
  };
}

function upload(
  h: Harness,
  account: Account,
  data: Buffer,
  options: Partial<tus.UploadOptions> = {},
): { done: Promise<string>; upload: tus.Upload } {
  let resolve!: (url: string) => void;
  let reject!: (err: Error) => void;
  const done = new Promise<string>((res, rej) => ((resolve = res), (reject = rej)));
  const up: tus.Upload = new tus.Upload(data, {
    endpoint: `${h.origin}${BASE}`,
    headers: account.headers,
    metadata: { filename: 'big.bin', filetype: 'application/octet-stream' },
    retryDelays: [0, 50, 100],
    onSuccess: () => resolve(up.url!),
    onError: reject,
    ...options,
  });
  up.start();
  return { done, upload: up };
}

/**
 * A TCP proxy in front of the server that drops a connection once it has carried `afterBytes`
 * from the client, `times` times: a flaky network or a proxy that caps request bodies.
 */
async function cuttingProxy(target: URL, rule: { afterBytes: number; times: number }) {
  const sockets = new Set<net.Socket>();
  const state = { cuts: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let carried = 0;
    client.on('data', (chunk: Buffer) => {
      carried += chunk.length;
      if (state.cuts < rule.times && carried > rule.afterBytes) {
        state.cuts++;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const close = () => (client.destroy(), upstream.destroy());
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get cuts() {
      return state.cuts;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('resumable uploads (tus 1.0)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(() => h.close());

  it('OPTIONS announces the version, extensions and checksum algorithm', async () => {
    const me = await h.account();
    const res = await me.call('OPTIONS', BASE);
    expect(res.status).toBe(204);
    expect(res.headers['tus-version']).toBe('1.0.0');
    expect(res.headers['tus-extension']).toBe('creation,creation-with-upload,termination,expiration,checksum');
    expect(res.headers['tus-checksum-algorithm']).toBe('sha256');
  });

  it('tus-js-client uploads a file in chunks; it becomes an ordinary file with the same bytes', async () => {
    const me = await h.account();
    const folder = await createFolder(me.browser, 'Uploads');
    const data = randomBytes(5 * MiB + 12345);
    await upload(h, me, data, { chunkSize: MiB, metadata: { filename: 'movie.bin', parent: folder._id } }).done;
    const [file] = await listFiles(me.browser, { parent: folder._id });
    expect(file).toMatchObject({ filename: 'movie.bin', length: data.length });
    const download = await me.browser.get(`/file-service/download/${file!._id}`);
    expect(download.rawPayload.equals(data)).toBe(true);
    expect(download.headers.etag).toBe(`"${sha256(data)}"`);
    // Carried over the pieces beside the SHA-256, for zips.
    const row = await h.app.database.db.selectFrom('file').select('crc32').where('id', '=', file!._id).executeTakeFirstOrThrow();
    expect(row.crc32).toBe(crc32(data));
  });

  it('an upload aborted at 40 % resumes from the server offset without resending what it holds', async () => {
    const me = await h.account();
    const data = randomBytes(4 * MiB);
    let first!: tus.Upload;
    await new Promise<void>((resolve, reject) => {
      first = new tus.Upload(data, {
        endpoint: `${h.origin}${BASE}`,
        headers: me.headers,
        chunkSize: 256 * 1024,
        metadata: { filename: 'resumed.bin' },
        onChunkComplete: (_size, sent) => {
          if (sent >= 0.4 * data.length) void first.abort().then(resolve);
        },
        onError: reject,
      });
      first.start();
    });
    const url = first.url!;
    const head = await me.call('HEAD', new URL(url).pathname, { 'tus-resumable': '1.0.0' });
    const held = Number(head.headers['upload-offset']);
    expect(held).toBeGreaterThanOrEqual(0.4 * data.length);
    expect(held).toBeLessThan(data.length);

    let firstProgress = -1;
    await upload(h, me, data, {
      uploadUrl: url,
      chunkSize: 256 * 1024,
      onProgress: (sent) => {
        if (firstProgress < 0) firstProgress = sent;
      },
    }).done;
    expect(firstProgress).toBeGreaterThanOrEqual(held);
    const files = await listFiles(me.browser);
    const file = files.find((f) => f.filename === 'resumed.bin')!;
    expect((await me.browser.get(`/file-service/download/${file._id}`)).rawPayload.equals(data)).toBe(true);
  });

  it('a connection cut mid-piece keeps the whole chunks that arrived; the client goes on from there', async () => {
    const me = await h.account();
    const data = randomBytes(MiB);
    const created = await me.call('POST', BASE, {
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': meta({ filename: 'cut.bin' }),
    });
    const location = created.headers.location!;
    await new Promise<void>((resolve) => {
      const req = http.request(`${h.origin}${location}`, {
        method: 'PATCH',
        headers: {
          ...me.headers,
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(data.length),
        },
      });
      req.on('error', () => resolve());
      req.write(data.subarray(0, 300 * 1024), () => setTimeout(() => req.destroy(), 200));
      req.on('close', () => resolve());
    });
    let offset = 0;
    for (let i = 0; i < 50 && offset === 0; i++) {
      offset = Number((await me.call('HEAD', location, { 'tus-resumable': '1.0.0' })).headers['upload-offset']);
      if (offset === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(offset).toBe(256 * 1024);
    const rest = await me.call(
      'PATCH',
      location,
      { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      data.subarray(offset),
    );
    expect(rest.status).toBe(204);
    expect(rest.headers['upload-offset']).toBe(String(data.length));
    const fileId = rest.headers['nimbus-file-id'] as string;
    expect((await me.browser.get(`/file-service/download/${fileId}`)).rawPayload.equals(data)).toBe(true);
  });

  it('through a proxy that cuts the connection twice mid-upload, the client resumes each time to identical bytes', async () => {
    const me = await h.account();
    const data = randomBytes(3 * MiB);
    const proxy = await cuttingProxy(new URL(h.origin), { afterBytes: MiB, times: 2 });
    try {
      const retried: number[] = [];
      const patchedAt: number[] = [];
      const url = await upload(h, me, data, {
        endpoint: `${proxy.origin}${BASE}`,
        metadata: { filename: 'proxied.bin' },
        // One request for the whole file: each cut lands in the middle of a PATCH body.
        chunkSize: Number.POSITIVE_INFINITY,
        retryDelays: [50, 100, 200, 400, 800, 1_600, 3_200],
        onShouldRetry: (err) => (retried.push(err.originalResponse?.getStatus() ?? 0), true),
        onBeforeRequest: (req) => {
          if (req.getMethod() === 'PATCH') patchedAt.push(Number(req.getHeader('Upload-Offset')));
        },
      }).done;
      expect(proxy.cuts).toBe(2);
      // Dropped connections; a retry that came while the server still finished the cut piece is
      // told to wait (423), or, when the piece was stored between the client's HEAD and its PATCH,
      // that its offset is stale (409). How many of each depends on how fast the server notices a
      // cut, so only their kinds are fixed (a cut can also land on a request already refused).
      expect(retried.filter((status) => status === 0).length).toBeGreaterThanOrEqual(1);
      expect(retried.every((status) => status === 0 || status === 423 || status === 409)).toBe(true);
      // Each retry went on from the server's offset: never backwards, and the last piece did not
      // start from the first byte again.
      expect(patchedAt[0]).toBe(0);
      expect(patchedAt.slice(1).every((offset, i) => offset >= patchedAt[i]!)).toBe(true);
      expect(patchedAt.at(-1)).toBeGreaterThan(0);
      const files = await listFiles(me.browser);
      const file = files.find((f) => f.filename === 'proxied.bin')!;
      expect(new URL(url).pathname).toMatch(/^\/file-service\/tus\//);
      expect((await me.browser.get(`/file-service/download/${file._id}`)).rawPayload.equals(data)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('creation-with-upload, checksums, and a wrong checksum keeps nothing', async () => {
    const me = await h.account();
    const data = randomBytes(200 * 1024);
    const digest = (b: Buffer) => `sha256 ${createHash('sha256').update(b).digest('base64')}`;
    const created = await me.call(
      'POST',
      BASE,
      {
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-metadata': meta({ filename: 'sum.bin' }),
        'content-type': 'application/offset+octet-stream',
        'upload-checksum': digest(data.subarray(0, 128 * 1024)),
      },
      data.subarray(0, 128 * 1024),
    );
    expect(created.status).toBe(201);
    expect(created.headers['upload-offset']).toBe(String(128 * 1024));
    const location = created.headers.location!;
    const patch = (body: Buffer, checksum: string) =>
      me.call(
        'PATCH',
        location,
        {
          'tus-resumable': '1.0.0',
          'upload-offset': String(128 * 1024),
          'content-type': 'application/offset+octet-stream',
          'upload-checksum': checksum,
        },
        body,
      );
    expect((await patch(data.subarray(128 * 1024), digest(Buffer.from('other')))).status).toBe(460);
    expect((await me.call('HEAD', location, { 'tus-resumable': '1.0.0' })).headers['upload-offset']).toBe(String(128 * 1024));
    expect((await patch(data.subarray(128 * 1024), 'md5 abc')).status).toBe(400);
    const done = await patch(data.subarray(128 * 1024), digest(data.subarray(128 * 1024)));
    expect(done.status).toBe(204);
    expect((await me.browser.get(`/file-service/download/${done.headers['nimbus-file-id']}`)).rawPayload.equals(data)).toBe(true);
  });

  it('an empty file completes at creation', async () => {
    const me = await h.account();
    const created = await me.call(
      'POST',
      BASE,
      {
        'tus-resumable': '1.0.0',
        'upload-length': '0',
        'upload-metadata': meta({ filename: 'empty.txt' }),
        'content-type': 'application/offset+octet-stream',
      },
      Buffer.alloc(0),
    );
    expect(created.status).toBe(201);
    const patched = await me.call('PATCH', created.headers.location!, {
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
      'content-length': '0',
    });
    expect(patched.status).toBe(204);
    expect((await listFiles(me.browser)).map((f) => [f.filename, f.length])).toEqual([['empty.txt', 0]]);
  });

  it('an upload whose process stopped after storing the last piece but before making the file is settled by HEAD or PATCH', async () => {
    const me = await h.account();
    const store = new ResumableStore(new LocalDiskStore((h.config.storage as { root: string }).root), h.config.secrets.encryptionKey);
    // Stores every byte and records it, as the server does before it makes the file, then stops there.
    const stranded = async (name: string, data: Buffer, joined = false) => {
      const created = await me.call('POST', BASE, {
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-metadata': meta({ filename: name }),
      });
      const id = created.headers.location!.split('/').pop()!;
      const row = await h.app.database.db.selectFrom('tusUpload').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const target = { storageKey: row.storageKey, wrappedKey: row.wrappedKey, length: row.length };
      await store.append(target, Readable.from([data]), { offset: 0, segment: 0, keepPartial: true });
      await h.app.database.db.updateTable('tusUpload').set({ offset: data.length, segments: 1 }).where('id', '=', id).execute();
      if (joined) await store.complete(target, 1, undefined, 16);
      return created.headers.location!;
    };
    const v = { 'tus-resumable': '1.0.0' };
    // An odd length: the stored end is a partial chunk, where no further piece may start.
    const first = randomBytes(100 * 1024 + 3);
    const byHead = await me.call('HEAD', await stranded('by-head.bin', first), v);
    expect(byHead.status).toBe(200);
    expect(byHead.headers['upload-offset']).toBe(String(first.length));
    expect(byHead.headers['nimbus-file-id']).toBeDefined();

    const second = randomBytes(70 * 1024 + 1);
    const at = await stranded('by-patch.bin', second);
    const pastEnd = await me.call(
      'PATCH',
      at,
      { ...v, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(second.length) },
      Buffer.from('x'),
    );
    expect(pastEnd.status).toBe(400);
    const byPatch = await me.call(
      'PATCH',
      at,
      { ...v, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(second.length) },
      Buffer.alloc(0),
    );
    expect(byPatch.status).toBe(204);
    expect(byPatch.headers['nimbus-file-id']).toBeDefined();

    // Stopped later still: the pieces were already joined into the file's object.
    const third = randomBytes(90 * 1024 + 5);
    const joined = await me.call('HEAD', await stranded('joined.bin', third, true), v);
    expect(joined.status).toBe(200);
    expect(joined.headers['nimbus-file-id']).toBeDefined();

    const files = await listFiles(me.browser);
    for (const [name, data] of [
      ['by-head.bin', first],
      ['by-patch.bin', second],
      ['joined.bin', third],
    ] as const) {
      const file = files.find((f) => f.filename === name)!;
      expect(sha256((await me.browser.get(`/file-service/download/${file._id}`)).rawPayload)).toBe(sha256(data));
    }
  });

  it('termination removes the upload and, through the deletion job, its stored pieces', async () => {
    const me = await h.account();
    const data = randomBytes(512 * 1024);
    const created = await me.call(
      'POST',
      BASE,
      {
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length * 2),
        'upload-metadata': meta({ filename: 'cancel.bin' }),
        'content-type': 'application/offset+octet-stream',
      },
      data,
    );
    const location = created.headers.location!;
    const pieces = async () => (await readdir(path.join(h.dataDir, 'files'), { recursive: true })).filter((f) => f.includes('tus.')).length;
    expect(await pieces()).toBeGreaterThan(0);
    expect((await me.call('DELETE', location, { 'tus-resumable': '1.0.0' })).status).toBe(204);
    expect((await me.call('HEAD', location, { 'tus-resumable': '1.0.0' })).status).toBe(404);
    await h.app.background.drainJobs();
    expect(await pieces()).toBe(0);
    expect(await listFiles(me.browser)).toEqual([]);
  });

  it('an upload left alone past its expiry is gone, with its bytes', async () => {
    const me = await h.account();
    const created = await me.call(
      'POST',
      BASE,
      {
        'tus-resumable': '1.0.0',
        'upload-length': String(MiB),
        'upload-metadata': meta({ filename: 'late.bin' }),
        'content-type': 'application/offset+octet-stream',
      },
      randomBytes(128 * 1024),
    );
    expect(new Date(created.headers['upload-expires'] as string).getTime()).toBeGreaterThan(h.clock.now() + 23 * 3600_000);
    const id = created.headers.location!.split('/').pop()!;
    const row = () => h.app.database.db.selectFrom('tusUpload').select('id').where('id', '=', id).executeTakeFirst();
    const pieces = async () => (await readdir(path.join(h.dataDir, 'files'), { recursive: true })).filter((f) => f.includes('tus.')).length;
    await h.app.background.schedule();
    await h.app.background.drainJobs();
    expect(await row()).toBeDefined();
    const before = await pieces();
    expect(before).toBeGreaterThan(0);

    h.clock.advance(25 * 3600_000);
    await h.app.background.schedule();
    await h.app.background.drainJobs();
    await h.app.background.drainJobs();
    expect(await row()).toBeUndefined();
    expect(await pieces()).toBeLessThan(before);
  });

  describe('bad input', () => {
    let me: Account;
    let location: string;
    beforeAll(async () => {
      me = await h.account();
      const created = await me.call('POST', BASE, {
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': meta({ filename: 'x.bin' }),
      });
      location = created.headers.location!;
    });
    const v = { 'tus-resumable': '1.0.0' };
    const body = { 'content-type': 'application/offset+octet-stream' };

    it('refuses creation without the version, a length, a filename, or with a foreign or bad parent', async () => {
      const other = await h.account();
      const theirs = await createFolder(other.browser, 'private');
      expect((await me.call('POST', BASE, { 'upload-length': '1', 'upload-metadata': meta({ filename: 'a' }) })).status).toBe(412);
      expect((await me.call('POST', BASE, { ...v, 'upload-metadata': meta({ filename: 'a' }) })).status).toBe(400);
      expect((await me.call('POST', BASE, { ...v, 'upload-length': '-1', 'upload-metadata': meta({ filename: 'a' }) })).status).toBe(400);
      expect((await me.call('POST', BASE, { ...v, 'upload-length': 'abc', 'upload-metadata': meta({ filename: 'a' }) })).status).toBe(400);
      expect((await me.call('POST', BASE, { ...v, 'upload-length': '1' })).status).toBe(400);
      expect((await me.call('POST', BASE, { ...v, 'upload-length': '1', 'upload-metadata': 'filename !!!' })).status).toBe(400);
      expect(
        (
          await me.call('POST', BASE, {
            ...v,
            'upload-length': '1',
            'upload-defer-length': '1',
            'upload-metadata': meta({ filename: 'a' }),
          })
        ).status,
      ).toBe(400);
      expect(
        (await me.call('POST', BASE, { ...v, 'upload-length': '1', 'upload-metadata': meta({ filename: 'a', parent: theirs._id }) }))
          .status,
      ).toBe(404);
      expect(
        (await me.call('POST', BASE, { ...v, 'upload-length': '1', 'upload-metadata': meta({ filename: 'a', parent: 'nope' }) })).status,
      ).toBe(404);
      expect(
        (await me.call('POST', BASE, { ...v, 'upload-length': '1', 'upload-metadata': meta({ filename: 'a' }), cookie: '' })).status,
      ).toBe(401);
    });

    it('refuses a wrong offset, a wrong type, a body past the length, and a foreign upload', async () => {
      expect((await me.call('PATCH', location, { ...v, ...body, 'upload-offset': '5' }, Buffer.alloc(10))).status).toBe(409);
      expect(
        (await me.call('PATCH', location, { ...v, 'content-type': 'text/plain', 'upload-offset': '0' }, Buffer.alloc(10))).status,
      ).toBe(415);
      expect((await me.call('PATCH', location, { ...v, ...body }, Buffer.alloc(10))).status).toBe(400);
      expect((await me.call('PATCH', location, { ...v, ...body, 'upload-offset': '0' }, Buffer.alloc(2000))).status).toBe(400);
      expect((await me.call('HEAD', location, v)).headers['upload-offset']).toBe('0');

      const other = await h.account();
      expect((await other.call('HEAD', location, v)).status).toBe(404);
      expect((await other.call('PATCH', location, { ...v, ...body, 'upload-offset': '0' }, Buffer.alloc(10))).status).toBe(404);
      expect((await other.call('DELETE', location, v)).status).toBe(404);
      expect((await me.call('HEAD', `${BASE}/..%2f..%2fetc`, v)).status).toBe(400);
      expect((await me.call('HEAD', location, v)).status).toBe(200);
    });

    it('two pieces at once: one is stored, the other told to retry', async () => {
      const created = await me.call('POST', BASE, {
        ...v,
        'upload-length': String(4 * MiB),
        'upload-metadata': meta({ filename: 'race.bin' }),
      });
      const at = created.headers.location!;
      const data = randomBytes(4 * MiB);
      const [a, b] = await Promise.all([
        me.call('PATCH', at, { ...v, ...body, 'upload-offset': '0' }, data),
        me.call('PATCH', at, { ...v, ...body, 'upload-offset': '0' }, data),
      ]);
      // One stores the piece; the other is told to retry (423) while it runs, or, when it comes in
      // after the first finished, that its offset is stale (409). Never both stored, never a 5xx.
      const statuses = [a.status, b.status].sort();
      expect(statuses[0]).toBe(204);
      expect([409, 423]).toContain(statuses[1]);
      const state = await me.call('HEAD', at, v);
      expect(state.headers['upload-offset']).toBe(String(4 * MiB));
    });
  });

  describe('limits', () => {
    let small: Harness;
    beforeAll(async () => {
      small = await start({ maxUploadBytes: 1000, storageQuotaBytes: 1500 });
    });
    afterAll(() => small.close());

    it('answers 413 at creation over MAX_UPLOAD_BYTES or the quota, counting unfinished uploads', async () => {
      const me = await small.account();
      const create = (length: number) =>
        me.call('POST', BASE, {
          'tus-resumable': '1.0.0',
          'upload-length': String(length),
          'upload-metadata': meta({ filename: 'q.bin' }),
        });
      expect((await create(1001)).status).toBe(413);
      expect((await me.call('OPTIONS', BASE)).headers['tus-max-size']).toBe('1000');
      expect((await create(1000)).status).toBe(201);
      expect((await create(600)).status).toBe(413);
      expect((await create(500)).status).toBe(201);
    });
  });
});
