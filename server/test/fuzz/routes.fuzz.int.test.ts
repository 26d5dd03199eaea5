import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';
import { seedAccounts, snapshotVictim, runFuzz, type Account, type Client } from './fuzz-scenario.mjs';
import type { FuzzContext } from './fuzz-requests.mjs';

// Reproduce a failure with the printed seed: FUZZ_SEED=<seed> npx vitest run test/fuzz
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);

describe(`hostile requests across every route (${testDialect()})`, () => {
  let t: TestApp;
  let client: Client;
  let attacker: Account;
  let victim: Account;
  let ctx: FuzzContext;
  let victimTusIds: string[];
  let before: unknown;

  beforeAll(async () => {
    // Semantic search off: loading the bundled model would dominate the run; its input is still fuzzed.
    // A web app to serve too: page routes answer everything the API does not.
    const webRoot = await mkdtemp(path.join(os.tmpdir(), 'nimbus-fuzz-web-'));
    await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>Nimbus</title>');
    t = await createTestApp({ search: { enabled: false, embeddings: null }, webRoot });
    const app = t.app;
    client = async ({ method, url, headers, body, remoteAddress }) => {
      const response = await app.inject({
        method: method as 'GET',
        url,
        headers,
        remoteAddress: remoteAddress ?? '127.0.0.1',
        ...(body === undefined ? {} : { payload: body }),
      });
      return { status: response.statusCode, headers: response.headers, body: response.rawPayload };
    };
    ({ attacker, victim, ctx, victimTusIds } = await seedAccounts(client));
    before = await snapshotVictim(victim, victimTusIds);
  });
  afterAll(() => t?.close());

  it(`answers ${RUNS} fuzzed requests without a 5xx and leaves the victim's data alone`, { timeout: 240_000 }, async () => {
    const started = Date.now();
    const stats = await runFuzz({ client, ctx, attacker, seed: SEED, runs: RUNS });
    console.log(
      `fuzz (${testDialect()}): seed ${SEED}, ${stats.requests} requests in ${Date.now() - started} ms, ` +
        `${Object.keys(stats.byRoute).length} routes, by status ${JSON.stringify(stats.byStatus)}, re-sign-ins ${stats.reSignIns}`,
    );
    expect(stats.serverErrors, `seed ${SEED}`).toEqual([]);
    expect(stats.transportErrors, `seed ${SEED}`).toEqual([]);
    expect((await client({ method: 'GET', url: '/health', headers: {} })).status).toBe(200);
    expect(await snapshotVictim(victim, victimTusIds)).toEqual(before);
  });

  it('survives what only a real socket can send: duplicated and contradictory headers, broken framing, cut bodies', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const session = `cookie: ${attacker.cookieFor('/')}\r\nuuid: ${attacker.uuid}\r\n`;
    const json = '{"name":"dup","parent":"/"}';
    const cases: [string, string | Buffer][] = [
      [
        'duplicate content-length',
        `POST /folder-service/create HTTP/1.1\r\nhost: x\r\n${session}content-type: application/json\r\ncontent-length: 5\r\ncontent-length: ${json.length}\r\n\r\n${json}`,
      ],
      [
        'chunked and content-length',
        `POST /folder-service/create HTTP/1.1\r\nhost: x\r\n${session}content-type: application/json\r\ncontent-length: 4\r\ntransfer-encoding: chunked\r\n\r\n${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
      ],
      [
        'bad chunk size',
        `POST /folder-service/create HTTP/1.1\r\nhost: x\r\n${session}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n${json}\r\n0\r\n\r\n`,
      ],
      [
        'duplicate content-type',
        `POST /folder-service/create HTTP/1.1\r\nhost: x\r\n${session}content-type: application/json\r\ncontent-type: text/plain\r\ncontent-length: ${json.length}\r\n\r\n${json}`,
      ],
      [
        'duplicate uuid',
        `POST /folder-service/create HTTP/1.1\r\nhost: x\r\n${session}uuid: ${randomUUID()}\r\ncontent-type: application/json\r\ncontent-length: ${json.length}\r\n\r\n${json}`,
      ],
      ['duplicate cookie', `GET /file-service/list HTTP/1.1\r\nhost: x\r\n${session}cookie: access-token=forged\r\n\r\n`],
      [
        'duplicate range',
        `GET /file-service/download/${ctx.attacker.fileIds![0]} HTTP/1.1\r\nhost: x\r\n${session}range: bytes=0-1\r\nrange: bytes=2-3\r\n\r\n`,
      ],
      [
        'duplicate authorization',
        `PROPFIND /dav/ HTTP/1.1\r\nhost: x\r\nauthorization: ${ctx.attacker.basicAuth}\r\nauthorization: Basic eDp5\r\ndepth: 1\r\n\r\n`,
      ],
      [
        'duplicate tus headers',
        `POST /file-service/tus HTTP/1.1\r\nhost: x\r\n${session}tus-resumable: 1.0.0\r\nupload-length: 5\r\nupload-length: 7\r\nupload-metadata: filename YQ==\r\nupload-metadata: filename Yg==\r\ncontent-length: 0\r\n\r\n`,
      ],
      ['NUL in a header', `GET /file-service/list HTTP/1.1\r\nhost: x\r\n${session}x-evil: a\u0000b\r\n\r\n`],
      ['bare LF line endings', `GET /health HTTP/1.1\nhost: x\n\n`],
      ['header without colon', `GET /health HTTP/1.1\r\nhost: x\r\nnonsense\r\n\r\n`],
      ['folded header', `GET /file-service/list HTTP/1.1\r\nhost: x\r\n${session}x-a: 1\r\n  continued\r\n\r\n`],
      ['absolute-form target', `GET http://evil.example/file-service/list HTTP/1.1\r\nhost: x\r\n${session}\r\n`],
      ['asterisk target', `OPTIONS * HTTP/1.1\r\nhost: x\r\n\r\n`],
      ['raw dot segments', `GET /file-service/../user-service/user HTTP/1.1\r\nhost: x\r\n${session}\r\n`],
      ['unknown HTTP version', `GET /health HTTP/9.9\r\nhost: x\r\n\r\n`],
      ['HTTP/1.0 without host', `GET /health HTTP/1.0\r\n\r\n`],
      [
        'non-ASCII request target',
        Buffer.concat([
          Buffer.from('GET /file-service/info/'),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from(` HTTP/1.1\r\nhost: x\r\n${session}\r\n`),
        ]),
      ],
      ['64 KB header', `GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(64 * 1024)}\r\n\r\n`],
      ['pipelined garbage', `GET /health HTTP/1.1\r\nhost: x\r\n\r\nGARBAGE\r\n\r\n`],
      [
        'body shorter than its length',
        `PATCH /file-service/rename HTTP/1.1\r\nhost: x\r\n${session}content-type: application/json\r\ncontent-length: 500\r\n\r\n{"id":"x","title":"y"}`,
      ],
      [
        'multipart cut mid-file',
        `POST /file-service/upload HTTP/1.1\r\nhost: x\r\n${session}content-type: multipart/form-data; boundary=zz\r\ncontent-length: 100000\r\n\r\n--zz\r\ncontent-disposition: form-data; name="parent"\r\n\r\n/\r\n--zz\r\ncontent-disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n${'x'.repeat(5000)}`,
      ],
      [
        'tus piece cut short',
        `PATCH /file-service/tus/${ctx.attacker.tusIds![0]} HTTP/1.1\r\nhost: x\r\n${session}tus-resumable: 1.0.0\r\nupload-offset: 0\r\ncontent-type: application/offset+octet-stream\r\ncontent-length: 1000\r\n\r\n${'y'.repeat(100)}`,
      ],
      [
        'WebDAV PUT cut short',
        `PUT /dav/cut.txt HTTP/1.1\r\nhost: x\r\nauthorization: ${ctx.attacker.basicAuth}\r\ncontent-length: 9000\r\n\r\nshort`,
      ],
    ];
    const statuses: Record<string, number | null> = {};
    // Requests cut short are half-closed, as a client that gives up; the others wait for their answer.
    for (const [name, raw] of cases) statuses[name] = await sendRaw(Number(port), raw, /short|cut/.test(name));
    console.log(`raw socket cases: ${JSON.stringify(statuses)}`);
    for (const [name, status] of Object.entries(statuses)) expect(status ?? 0, name).toBeLessThan(500);
    const health = await fetch(`${address}/health`);
    expect(health.status).toBe(200);
    expect(await snapshotVictim(victim, victimTusIds)).toEqual(before);
  });
});

/**
 * Writes `raw` (then half-closes if `giveUp`); returns the status of the first answer, or null when
 * the server closed without one (a fine answer to a request cut short).
 */
function sendRaw(port: number, raw: string | Buffer, giveUp: boolean): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const done = () => {
      socket.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      resolve(m ? Number(m[1]) : null);
    };
    socket.setTimeout(5_000, done);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(raw, () => giveUp && socket.end());
  });
}
