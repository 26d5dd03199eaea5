import type { FileDto } from '@nimbus/common';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listFiles, listFolders } from '../helpers/drive.js';
import { multipartBody, type Part } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

interface Entry {
  path: string;
  data: string;
  meta?: unknown;
}

function folderUploadParts(entries: Entry[]): Part[] {
  return [
    { name: 'parent', value: '/' },
    { name: 'total-files', value: String(entries.length) },
    ...entries.map((e, index) => ({
      name: 'file-data',
      value:
        typeof e.meta === 'string'
          ? e.meta
          : JSON.stringify(e.meta ?? { name: e.path.split('/').pop(), size: e.data.length, type: 'text/plain', path: e.path, index }),
    })),
    ...entries.map((e) => ({ name: 'file', filename: e.path.split('/').pop()!, data: e.data })),
  ];
}

describe('folder upload limits', () => {
  let t: TestApp;
  let alice: TestBrowser;

  const send = async (parts: Part[]) => {
    const { body, contentType } = await multipartBody(parts);
    return alice.request('POST', '/folder-service/upload', body, { 'content-type': contentType });
  };
  const storedObjects = async (): Promise<number> => {
    const entries = await readdir(path.join(t.dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile()).length;
  };
  async function expectDriveUnchanged(before: number): Promise<void> {
    await t.app.background.drainJobs();
    expect(await listFolders(alice)).toEqual([]);
    expect(await listFiles(alice)).toEqual([]);
    expect(await storedObjects()).toBe(before);
  }

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  it('undoes the files and folders it made when a later file-data part is invalid', async () => {
    const before = await storedObjects();
    const parts = folderUploadParts([
      { path: 'Trip/ok.txt', data: 'fine' },
      { path: 'Trip/day/bad.txt', data: 'x', meta: '{not json' },
    ]);
    // The valid file is sent (and stored) before the broken part arrives.
    const broken = parts.splice(3, 1)[0]!;
    parts.splice(4, 0, broken);
    const response = await send(parts);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    await expectDriveUnchanged(before);
  });

  it('refuses file-data with unknown keys, or longer than 16 KiB, and keeps nothing', async () => {
    const before = await storedObjects();
    const padded = await send(folderUploadParts([{ path: 'a.txt', data: 'a', meta: { name: 'a.txt', index: 0, padding: 'x' } }]));
    expect(padded.statusCode).toBe(400);
    const long = await send(folderUploadParts([{ path: `${'d/'.repeat(9000)}a.txt`, data: 'a' }]));
    expect(long.statusCode).toBe(400);
    await expectDriveUnchanged(before);
  });

  it('refuses more than 8 MiB of fields in one request', async () => {
    const before = await storedObjects();
    const filler = 'x'.repeat(15 * 1024);
    const parts: Part[] = [{ name: 'parent', value: '/' }];
    for (let i = 0; i < 600; i++) parts.push({ name: 'total-files', value: filler });
    parts.push({ name: 'file', filename: 'a.txt', data: 'a' });
    const response = await send(parts);
    expect(response.statusCode).toBe(400);
    await expectDriveUnchanged(before);
  });

  it('parses each file-data part once, however many files there are', async () => {
    const entries = Array.from({ length: 400 }, (_, i) => ({ path: `Many/${i}.txt`, data: String(i) }));
    const parts = folderUploadParts(entries);
    const { body, contentType } = await multipartBody(parts);
    const parse = vi.spyOn(JSON, 'parse');
    let response;
    try {
      response = await alice.request('POST', '/folder-service/upload', body, { 'content-type': contentType });
    } finally {
      parse.mockRestore();
    }
    expect(response.statusCode).toBe(201);
    expect((response.json() as { files: FileDto[] }).files.length).toBe(400);
    // Quadratic re-parsing made 80,200 calls here; one per part is 400 (plus a few of the framework's).
    expect(parse.mock.calls.length).toBeLessThan(2 * entries.length);
  });
});
