import type { FileDto, FolderDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, listFolders, upload } from '../helpers/drive.js';
import { multipartBody, type Part } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

function decodeFilenameStar(header: string): string {
  const match = /filename\*=UTF-8''([^;]+)/.exec(header);
  return decodeURIComponent(match![1]!);
}

describe('hostile names and folder uploads', () => {
  let t: TestApp;
  let alice: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  it.each([
    ['../../etc/passwd', '.._.._etc_passwd'],
    ['nul\u0000byte.txt', 'nulbyte.txt'],
    ['evil\u202Etxt.exe', 'eviltxt.exe'],
    ['emoji 😀 file.png', 'emoji 😀 file.png'],
    ['CON', 'CON'],
    ['quote"and;semi.txt', 'quote"and;semi.txt'],
  ])('stores %j safely and downloads it under the right name', async (given, stored) => {
    const file = await upload(alice, given, 'payload');
    expect(file.filename).toBe(stored);
    const response = await alice.get(`/file-service/download/${file._id}`);
    expect(response.statusCode).toBe(200);
    expect(decodeFilenameStar(response.headers['content-disposition'] as string)).toBe(stored);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=/);
  });

  it('caps a 300-character name at 255 UTF-8 bytes, keeping the extension', async () => {
    const file = await upload(alice, `${'é'.repeat(300)}.txt`, 'x');
    expect(Buffer.byteLength(file.filename)).toBeLessThanOrEqual(255);
    expect(file.filename.endsWith('.txt')).toBe(true);
  });

  it('recreates a relative-path tree under the parent', async () => {
    const entries = [
      { path: 'Trip/day1/a.jpg', data: 'a' },
      { path: 'Trip/day1/b.jpg', data: 'b' },
      { path: 'Trip/day2/c.jpg', data: 'c' },
      { path: 'Trip/notes.txt', data: 'n' },
    ];
    const parts: Part[] = [
      { name: 'parent', value: '/' },
      { name: 'total-files', value: String(entries.length) },
      ...entries.map((e, index) => ({
        name: 'file-data',
        value: JSON.stringify({ name: e.path.split('/').pop(), size: 1, type: 'image/jpeg', path: e.path, index }),
      })),
      ...entries.map((e) => ({ name: 'file', filename: e.path.split('/').pop()!, data: e.data })),
    ];
    const { body, contentType } = await multipartBody(parts);
    const response = await alice.request('POST', '/folder-service/upload', body, { 'content-type': contentType });
    expect(response.statusCode).toBe(201);
    const result = response.json<{ files: FileDto[]; folders: FolderDto[] }>();
    expect(result.files.length).toBe(4);
    expect(result.folders.map((f) => f.name).sort()).toEqual(['Trip', 'day1', 'day2']);
    const trip = (await listFolders(alice)).find((f) => f.name === 'Trip')!;
    expect((await listFolders(alice, { parent: trip._id })).map((f) => f.name).sort()).toEqual(['day1', 'day2']);
    expect((await listFiles(alice, { parent: trip._id })).map((f) => f.filename)).toEqual(['notes.txt']);
    const day1 = (await listFolders(alice, { parent: trip._id })).find((f) => f.name === 'day1')!;
    expect((await listFiles(alice, { parent: day1._id, sortBy: 'alp_asc' })).map((f) => f.filename)).toEqual(['a.jpg', 'b.jpg']);
  });
});
