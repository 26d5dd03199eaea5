import type { ApiErrorBody, FileDto, FolderDto, LinkedFileDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

/** Answers myDrive's own web client reads in its own shape, beside the shape Nimbus's own client reads. */
describe('myDrive client compatibility', () => {
  let t: TestApp;
  let alice: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  const fileFields = (dto: FileDto): FileDto => ({
    _id: dto._id,
    filename: dto.filename,
    length: dto.length,
    uploadDate: dto.uploadDate,
    metadata: dto.metadata,
  });

  it.each([
    ['make-public', 'public'],
    ['make-one', 'one'],
  ] as const)('%s answers the updated file, and also { file, token } as myDrive reads it', async (route, linkType) => {
    const uploaded = await upload(alice, `${route}.txt`, 'shared text');
    const response = await alice.patch(`/file-service/${route}/${uploaded._id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json<LinkedFileDto>();

    expect(body.file._id).toBe(uploaded._id);
    expect(body.file.metadata.linkType).toBe(linkType);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.file.metadata.link).toBe(body.token);
    // The file's own fields stay at the top level, the same as the nested file.
    expect(fileFields(body)).toEqual(body.file);
    expect(Object.keys(body).sort()).toEqual(['_id', 'file', 'filename', 'length', 'metadata', 'token', 'uploadDate']);
    expect(Object.keys(body.file).sort()).toEqual(['_id', 'filename', 'length', 'metadata', 'uploadDate']);

    // The token answered is the one that opens the public link.
    expect((await new TestBrowser(t.app).get(`/file-service/public/info/${uploaded._id}/${body.token}`)).statusCode).toBe(200);
  });

  it('remove-link still answers the bare file', async () => {
    const uploaded = await upload(alice, 'private-again.txt', 'text');
    expect((await alice.patch(`/file-service/make-public/${uploaded._id}`)).statusCode).toBe(200);
    const response = await alice.patch(`/file-service/remove-link/${uploaded._id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json<FileDto & { file?: unknown; token?: unknown }>();
    expect(body._id).toBe(uploaded._id);
    expect(body.metadata.link).toBeUndefined();
    expect(body.file).toBeUndefined();
    expect(body.token).toBeUndefined();
  });

  describe('move-folder-list', () => {
    async function targets(query: string): Promise<string[]> {
      const response = await alice.get(`/folder-service/move-folder-list?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<FolderDto[]>().map((f) => f._id);
    }

    it('takes an empty id (a file right-clicked without being selected) as excluding nothing', async () => {
      const moved = await createFolder(alice, 'mfl-moved');
      const other = await createFolder(alice, 'mfl-other');

      const all = await targets('parent=/&search=&folderIDs[]=&currentParent=/');
      expect(all).toEqual(expect.arrayContaining([moved._id, other._id]));
      expect(await targets('parent=/&folderIDs=')).toEqual(all);
      expect(await targets('parent=/&folderIDs[]=&folderIDs[]=')).toEqual(all);

      const withoutMoved = await targets(`parent=/&folderIDs[]=&folderIDs[]=${moved._id}`);
      expect(withoutMoved).toContain(other._id);
      expect(withoutMoved).not.toContain(moved._id);
    });

    it('takes one id or several, with or without brackets', async () => {
      const a = await createFolder(alice, 'mfl-a');
      const b = await createFolder(alice, 'mfl-b');
      const c = await createFolder(alice, 'mfl-c');

      const single = await targets(`folderIDs=${a._id}`);
      expect(single).not.toContain(a._id);
      expect(single).toEqual(expect.arrayContaining([b._id, c._id]));

      const repeated = await targets(`folderIDs=${a._id}&folderIDs=${b._id}`);
      expect(repeated).not.toContain(a._id);
      expect(repeated).not.toContain(b._id);
      expect(repeated).toContain(c._id);

      const bracketed = await targets(`folderIDs[]=${a._id}&folderIDs[]=${b._id}`);
      expect(bracketed).toEqual(repeated);

      // Both spellings in one query: every id counts.
      const mixed = await targets(`folderIDs=${a._id}&folderIDs[]=${b._id}`);
      expect(mixed).toEqual(repeated);
    });

    it('still refuses an id that is too long, or too many ids', async () => {
      const long = await alice.get(`/folder-service/move-folder-list?folderIDs[]=${'x'.repeat(65)}`);
      expect(long.statusCode).toBe(400);
      expect(long.json<ApiErrorBody>().code).toBe('VALIDATION_FAILED');
      const many = new URLSearchParams(Array.from({ length: 1001 }, (_, i) => ['folderIDs[]', `id${i}`]));
      const tooMany = await alice.get(`/folder-service/move-folder-list?${many}`);
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json<ApiErrorBody>().code).toBe('VALIDATION_FAILED');
    });
  });
});
