import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { fileRow, insertCopies, unzip } from './support.js';

const MB = 1024 * 1024;

describe('large zip downloads', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
    dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-zip-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('streams 10,000 files (160 MiB) over HTTP while the server memory stays flat', { timeout: 180_000 }, async () => {
    const content = randomBytes(16 * 1024);
    const folder = await createFolder(alice, 'Many');
    const template = await fileRow(t.app, (await upload(alice, 'template.bin', content, folder._id))._id);
    await insertCopies(t.app, template, 9_999, (i) => `file-${String(i).padStart(5, '0')}.bin`);

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const cookie = [...alice.cookies].map(([name, c]) => `${name}=${c.value}`).join('; ');
    const target = path.join(dir, 'many.zip');

    global.gc?.();
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
    let received = 0;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(`http://127.0.0.1:${port}/folder-service/download-zip?folderIDs[]=${folder._id}`, { headers: { cookie } }, resolve)
        .on('error', reject),
    );
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(response, count, createWriteStream(target));
    clearInterval(sampler);

    expect(response.statusCode).toBe(200);
    expect(received).toBeGreaterThan(10_000 * content.length);
    // 10,000 entries are listed first (ZIP_ENTRIES_MEASURED), so the length is known.
    expect(response.headers['content-length']).toBe(String(received));
    // The archive is 160 MiB; holding it (or its files) in memory would show here.
    expect((peak - baseline) / MB).toBeLessThan(100);

    const zip = await yauzl.openPromise(target);
    expect(zip.entryCount).toBe(10_000);
    let checked = 0;
    for await (const entry of zip.eachEntry()) {
      if (checked++ % 1000 !== 0) continue;
      const parts: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) parts.push(chunk as Buffer);
      expect(Buffer.concat(parts).equals(content), entry.fileName).toBe(true);
    }
    expect(checked).toBe(10_000);
  });

  it('writes ZIP64 beyond 65,535 entries', { timeout: 180_000 }, async () => {
    const folder = await createFolder(alice, 'Crowded');
    const template = await fileRow(t.app, (await upload(alice, 'empty-0.txt', '', folder._id))._id);
    await insertCopies(t.app, template, 65_599, (i) => `empty-${i + 1}.txt`);
    const response = await alice.get(`/folder-service/download-zip?folderIDs[]=${folder._id}`);
    expect(response.statusCode).toBe(200);
    // Too many entries to list first: streamed as the tree is walked, without a length.
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['transfer-encoding']).toBe('chunked');
    const archive = response.rawPayload;
    // The ZIP64 end of central directory record is there, and an independent reader counts every entry.
    expect(archive.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    const { files } = await unzip(archive, { readContents: false });
    expect(files.size).toBe(65_600);
    expect(files.has('Crowded/empty-65599.txt')).toBe(true);
  });
});
