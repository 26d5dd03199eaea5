import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('an upload aborted half-way', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it('leaves no row and no stored bytes', async () => {
    const { body, contentType } = await multipartBody([
      { name: 'filename', value: 'big.bin' },
      { name: 'parent', value: '/' },
      { name: 'file', filename: 'big.bin', data: randomBytes(8 * 1024 * 1024) },
    ]);
    const cookie = [...alice.cookies].map(([name, c]) => `${name}=${c.value}`).join('; ');
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /file-service/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\nuuid: ${alice.browserId}\r\ncookie: ${cookie}\r\n\r\n`,
    );
    await new Promise<void>((resolve) => socket.write(body.subarray(0, body.length / 2), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();

    const deadline = Date.now() + 10_000;
    let leftovers = await filesUnder(path.join(t.dataDir, 'files'));
    while (leftovers.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      leftovers = await filesUnder(path.join(t.dataDir, 'files'));
    }
    expect(leftovers).toEqual([]);
    expect(await listFiles(alice)).toEqual([]);
  });
});
