import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderRepository } from '../../src/db/repositories/folder.repository.js';
import { newId } from '../../src/security/ids.js';
import { ZIP_PATH_MAX_BYTES } from '../../src/services/downloads/zip.service.js';
import { createFolder, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { unzip } from './support.js';

describe('zip edge cases', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let ownerId: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    ownerId = (await alice.signUp()).id;
  });
  afterAll(() => t.close());

  const zipOf = async (query: string) => {
    const response = await alice.get(`/folder-service/download-zip?${query}`);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    return unzip(response.rawPayload);
  };

  it('keeps a path too long for the zip format as a valid entry instead of failing', async () => {
    const folders = new FolderRepository(t.app.database.db, t.app.database.dialect);
    let parent: string | null = null;
    let top = '';
    for (let level = 0; level < 260; level++) {
      const id = newId();
      const name = `${String(level).padStart(3, '0')}${'x'.repeat(251)}`;
      await folders.insert({
        id,
        ownerId,
        parentId: parent,
        name,
        nameKey: name,
        createdAt: 1,
        updatedAt: 1,
        trashedAt: null,
        trashedVia: null,
      });
      if (level === 0) top = id;
      parent = id;
    }
    const file = await upload(alice, 'deep.txt', 'at the bottom');
    await t.app.database.db.updateTable('file').set({ folderId: parent }).where('id', '=', file._id).execute();

    const archive = await zipOf(`folderIDs[]=${top}`);
    const paths = [...archive.files.keys()];
    expect(paths).toHaveLength(1);
    expect(paths[0]).toMatch(/^long paths\/[0-9a-f]{16} deep\.txt$/);
    expect(archive.files.get(paths[0]!)!.toString()).toBe('at the bottom');
    expect(Buffer.byteLength(paths[0]!)).toBeLessThanOrEqual(ZIP_PATH_MAX_BYTES);
  });

  it('zips a folder chosen together with its subfolder and a file inside it only once', async () => {
    const parent = await createFolder(alice, 'Parent');
    const child = await createFolder(alice, 'Child', parent._id);
    const inner = await upload(alice, 'inner.txt', 'inner', child._id);
    const loose = await upload(alice, 'loose.txt', 'loose');
    const archive = await zipOf(`folderIDs[]=${parent._id}&folderIDs[]=${child._id}&fileIDs[]=${inner._id}&fileIDs[]=${loose._id}`);
    expect([...archive.files.keys()].sort()).toEqual(['Parent/Child/inner.txt', 'loose.txt']);
  });
});
