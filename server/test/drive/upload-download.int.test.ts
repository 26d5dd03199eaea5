import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('upload and download', () => {
  let t: TestApp;
  let alice: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  it('stores a file and returns its bytes, size and type', async () => {
    const data = randomBytes(200_000);
    const file = await upload(alice, 'photo.bin', data);
    expect(file.length).toBe(200_000);
    expect(file.metadata.parent).toBe('/');
    const response = await alice.get(`/file-service/download/${file._id}`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(data)).toBe(true);
    expect(response.headers['content-length']).toBe('200000');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['content-disposition']).toContain("filename*=UTF-8''photo.bin");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sniffs the content type from the bytes', async () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4cf0000000049454e44ae426082',
      'hex',
    );
    const file = await upload(alice, 'no-extension', png);
    expect(file.metadata.contentType).toBe('image/png');
    const text = await upload(alice, 'notes.txt', 'hello');
    expect(text.metadata.contentType).toBe('text/plain');
  });

  it('uploads into a folder and lists it there only', async () => {
    const folder = await createFolder(alice, 'Docs');
    const file = await upload(alice, 'in-folder.txt', 'x', folder._id);
    expect(file.metadata.parent).toBe(folder._id);
    expect((await listFiles(alice, { parent: folder._id })).map((f) => f._id)).toEqual([file._id]);
    expect((await listFiles(alice)).map((f) => f._id)).not.toContain(file._id);
  });

  it('refuses an unknown or trashed parent and stores nothing', async () => {
    const before = (await listFiles(alice)).length;
    const { body, contentType } = await multipartBody([
      { name: 'parent', value: 'nope' },
      { name: 'file', filename: 'a.txt', data: 'abc' },
    ]);
    const response = await alice.request('POST', '/file-service/upload', body, { 'content-type': contentType });
    expect(response.statusCode).toBe(404);
    expect((await listFiles(alice)).length).toBe(before);
  });

  it('answers Range requests', async () => {
    const data = randomBytes(100_000);
    const file = await upload(alice, 'ranged.bin', data);
    const url = `/file-service/download/${file._id}`;
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=-500', 99_500, 99_999],
      ['bytes=99990-', 99_990, 99_999],
      ['bytes=65530-65545', 65_530, 65_545],
      ['bytes=5-999999', 5, 99_999],
    ];
    for (const [range, start, end] of cases) {
      const r = await alice.request('GET', url, undefined, { range });
      expect(r.statusCode, range).toBe(206);
      expect(r.headers['content-range']).toBe(`bytes ${start}-${end}/100000`);
      expect(r.rawPayload.equals(data.subarray(start, end + 1)), range).toBe(true);
    }
    const past = await alice.request('GET', url, undefined, { range: 'bytes=100000-' });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */100000');
  });

  it('supports conditional GET and HEAD', async () => {
    const file = await upload(alice, 'cond.txt', 'conditional');
    const url = `/file-service/download/${file._id}`;
    const first = await alice.get(url);
    const etag = first.headers.etag as string;
    expect((await alice.request('GET', url, undefined, { 'if-none-match': etag })).statusCode).toBe(304);
    const head = await alice.request('HEAD', url);
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('11');
    expect(head.body).toBe('');
  });

  it('enforces MAX_UPLOAD_BYTES with 413 and stores nothing', async () => {
    const small = await createTestApp({ maxUploadBytes: 1000 });
    try {
      const bob = new TestBrowser(small.app);
      await bob.signUp();
      const { body, contentType } = await multipartBody([{ name: 'file', filename: 'big.bin', data: randomBytes(5000) }]);
      const response = await bob.request('POST', '/file-service/upload', body, { 'content-type': contentType });
      expect(response.statusCode).toBe(413);
      expect(await listFiles(bob)).toEqual([]);
      await upload(bob, 'ok.bin', randomBytes(1000));
    } finally {
      await small.close();
    }
  });
});
