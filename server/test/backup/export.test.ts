import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { unzip } from '../zip/support.js';

describe('export my drive', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let bob: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    bob = new TestBrowser(t.app);
    await alice.signUp();
    await bob.signUp();
    const photos = await createFolder(alice, 'Photos');
    const trip = await createFolder(alice, 'Trip 2024', photos._id);
    await createFolder(alice, 'Empty');
    const old = await createFolder(alice, 'Old');
    await upload(alice, 'notes.txt', 'root notes');
    await upload(alice, 'beach.jpg', 'not really a jpeg', trip._id);
    await upload(alice, 'Résumé été.pdf', 'unicode name', photos._id);
    await upload(alice, 'inside-old.txt', 'trashed with its folder', old._id);
    const binned = await upload(alice, 'binned.txt', 'trashed alone');
    expect((await alice.patch('/file-service/trash', { id: binned._id })).statusCode).toBe(200);
    expect((await alice.patch('/folder-service/trash', { id: old._id })).statusCode).toBe(200);
    await upload(bob, 'bob-secret.txt', 'bob only');
    await createFolder(bob, 'Bob folder');
  });
  afterAll(async () => {
    await t.close();
  });

  it('zips the whole active tree with original names and folders, never the trash', async () => {
    const response = await alice.get('/user-service/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain('my-drive.zip');
    const zip = await unzip(response.rawPayload);
    expect([...zip.files.keys()].sort()).toEqual(['Photos/Résumé été.pdf', 'Photos/Trip 2024/beach.jpg', 'notes.txt']);
    expect(zip.files.get('Photos/Trip 2024/beach.jpg')?.toString()).toBe('not really a jpeg');
    expect(zip.files.get('notes.txt')?.toString()).toBe('root notes');
    expect(zip.directories).toEqual(['Empty/']);
  });

  it("never includes another user's files", async () => {
    const zip = await unzip((await bob.get('/user-service/export')).rawPayload);
    expect([...zip.files.keys()]).toEqual(['bob-secret.txt']);
    expect(zip.directories).toEqual(['Bob folder/']);
  });

  it('gives an empty archive for an empty drive', async () => {
    const carol = new TestBrowser(t.app);
    await carol.signUp();
    const zip = await unzip((await carol.get('/user-service/export')).rawPayload);
    expect(zip.entryCount).toBe(0);
  });

  it('answers 401 when not signed in', async () => {
    const response = await new TestBrowser(t.app).get('/user-service/export');
    expect(response.statusCode).toBe(401);
  });
});
