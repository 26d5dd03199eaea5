import type { FileDto, PublicFileDto } from '@nimbus/common';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { buildApp } from '../../src/app.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('share links', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let anonymous: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    anonymous = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  async function share(file: FileDto, kind: 'make-public' | 'make-one' | 'remove-link'): Promise<FileDto> {
    const response = await alice.patch(`/file-service/${kind}/${file._id}`);
    expect(response.statusCode).toBe(200);
    return response.json() as FileDto;
  }

  it('makes a file public with a fresh random token each time, and private again', async () => {
    const file = await upload(alice, 'report.pdf', 'report');
    const shared = await share(file, 'make-public');
    expect(shared.metadata.linkType).toBe('public');
    expect(shared.metadata.link).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await share(file, 'make-public');
    expect(again.metadata.link).not.toBe(shared.metadata.link);
    expect((await listFiles(alice)).find((f) => f._id === file._id)?.metadata.link).toBe(again.metadata.link);
    // The replaced token no longer works.
    expect((await anonymous.get(`/file-service/public/info/${file._id}/${shared.metadata.link}`)).statusCode).toBe(404);

    const removed = await share(file, 'remove-link');
    expect(removed._id).toBe(file._id);
    expect(removed.metadata.linkType).toBeUndefined();
    expect(removed.metadata.link).toBeUndefined();
    expect((await anonymous.get(`/file-service/public/download/${file._id}/${again.metadata.link}`)).statusCode).toBe(404);
  });

  it('shows only what the public page needs and serves a public link any number of times, with ranges', async () => {
    const data = randomBytes(100_000);
    const file = await share(await upload(alice, 'holiday.bin', data), 'make-public');
    const token = file.metadata.link!;

    const info = await anonymous.get(`/file-service/public/info/${file._id}/${token}`);
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual<PublicFileDto>({
      _id: file._id,
      filename: 'holiday.bin',
      length: 100_000,
      uploadDate: file.uploadDate,
      metadata: { linkType: 'public', size: 100_000 },
    });

    for (let i = 0; i < 2; i++) {
      const whole = await anonymous.get(`/file-service/public/download/${file._id}/${token}`);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(data)).toBe(true);
      expect(whole.headers['content-disposition']).toContain('attachment');
    }
    const part = await anonymous.request('GET', `/file-service/public/download/${file._id}/${token}`, undefined, {
      range: 'bytes=1000-1999',
    });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(data.subarray(1000, 2000))).toBe(true);
  });

  it('answers 404 for a wrong token, a private file, a trashed file or an unknown id, revealing nothing', async () => {
    const file = await share(await upload(alice, 'secret.txt', 'secret'), 'make-public');
    const token = file.metadata.link!;
    const privateFile = await upload(alice, 'private.txt', 'private');
    const urls = [
      `/file-service/public/info/${file._id}/${token.slice(0, -1)}x`,
      `/file-service/public/download/${file._id}/${'A'.repeat(43)}`,
      `/file-service/public/info/${privateFile._id}/${token}`,
      `/file-service/public/download/${privateFile._id}/${token}`,
      `/file-service/public/info/nonexistent/${token}`,
    ];
    const bodies = new Set<string>();
    for (const url of urls) {
      const response = await anonymous.get(url);
      expect(response.statusCode, url).toBe(404);
      const { error, code } = response.json() as { error: string; code: string };
      bodies.add(`${code}:${error}`);
    }
    expect([...bodies]).toEqual(['FILE_NOT_FOUND:File not found']);

    expect((await alice.patch('/file-service/trash', { id: file._id })).statusCode).toBe(200);
    expect((await anonymous.get(`/file-service/public/info/${file._id}/${token}`)).statusCode).toBe(404);
    expect((await anonymous.get(`/file-service/public/download/${file._id}/${token}`)).statusCode).toBe(404);
    // A trashed file cannot be shared anew either.
    expect((await alice.patch(`/file-service/make-public/${file._id}`)).statusCode).toBe(404);
    // Restored, the link it had works again.
    expect((await alice.patch('/file-service/restore', { id: file._id })).statusCode).toBe(200);
    expect((await anonymous.get(`/file-service/public/info/${file._id}/${token}`)).statusCode).toBe(200);
  });

  it('serves a one-time link exactly once; its info does not use it up', async () => {
    const data = randomBytes(50_000);
    const file = await share(await upload(alice, 'once.bin', data), 'make-one');
    const token = file.metadata.link!;
    expect(file.metadata.linkType).toBe('one');

    for (let i = 0; i < 3; i++) {
      const info = await anonymous.get(`/file-service/public/info/${file._id}/${token}`);
      expect(info.statusCode).toBe(200);
      expect((info.json() as PublicFileDto).metadata.linkType).toBe('one');
    }
    const head = await anonymous.request('HEAD', `/file-service/public/download/${file._id}/${token}`);
    expect(head.statusCode).toBe(200);

    // A range request still gets the whole body: the one download must be complete.
    const first = await anonymous.request('GET', `/file-service/public/download/${file._id}/${token}`, undefined, {
      range: 'bytes=0-9',
      'if-none-match': `"${'0'.repeat(64)}"`,
    });
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(data)).toBe(true);
    expect(first.headers['accept-ranges']).toBeUndefined();
    expect(first.headers['cache-control']).toBe('private, no-store');

    expect((await anonymous.get(`/file-service/public/download/${file._id}/${token}`)).statusCode).toBe(404);
    expect((await anonymous.get(`/file-service/public/info/${file._id}/${token}`)).statusCode).toBe(404);
    const after = (await listFiles(alice)).find((f) => f._id === file._id)!;
    expect(after.metadata.linkType).toBeUndefined();
    expect(after.metadata.link).toBeUndefined();
  });

  it('gives a one-time link to exactly one of 20 concurrent downloads, then the file is private', async () => {
    const data = randomBytes(300_000);
    const file = await share(await upload(alice, 'race.bin', data), 'make-one');
    const url = `/file-service/public/download/${file._id}/${file.metadata.link}`;
    // A second server process on the same database takes half of the requests.
    const second = await buildApp(t.config);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => new TestBrowser(i % 2 ? second : t.app).get(url))).finally(
      () => second.close(),
    );
    const winners = responses.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.rawPayload.equals(data)).toBe(true);
    expect(responses.filter((r) => r.statusCode === 404)).toHaveLength(19);
    const info = await alice.get(`/file-service/info/${file._id}`);
    expect((info.json() as FileDto).metadata.linkType).toBeUndefined();
  });

  it("answers 404 for another user's files and 401 when signed out", async () => {
    const file = await upload(alice, 'mine.txt', 'mine');
    const bob = new TestBrowser(t.app);
    await bob.signUp();
    for (const kind of ['make-public', 'make-one', 'remove-link']) {
      expect((await bob.patch(`/file-service/${kind}/${file._id}`)).statusCode).toBe(404);
      expect((await anonymous.patch(`/file-service/${kind}/${file._id}`)).statusCode).toBe(401);
    }
    expect(((await alice.get(`/file-service/info/${file._id}`)).json() as FileDto).metadata.linkType).toBeUndefined();
  });

  it('rejects malformed ids and tokens with 400', async () => {
    const long = 'x'.repeat(80);
    expect((await anonymous.get('/file-service/public/info/abc/not%20a%20token')).statusCode).toBe(400);
    expect((await anonymous.get(`/file-service/public/download/${long}/token`)).statusCode).toBe(400);
    expect((await alice.patch(`/file-service/make-public/${long}`)).statusCode).toBe(400);
  });
});
