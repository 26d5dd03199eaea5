import type { ApiErrorBody, ShareLinkDto, SharedLinkInfoDto, SharedListingDto } from '@nimbus/common';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { HOUR, TestClock } from '../users/support.js';
import { unzip } from '../zip/support.js';

const PUBLIC = '/share-service/public';

describe('share links with options: folders, passwords, expiry, limits, drops', () => {
  let t: TestApp;
  let clock: TestClock;
  let alice: TestBrowser;
  let bob: TestBrowser;

  beforeAll(async () => {
    clock = new TestClock();
    t = await createTestApp({}, { clock });
    alice = new TestBrowser(t.app);
    bob = new TestBrowser(t.app);
    await alice.signUp();
    await bob.signUp();
  });
  afterAll(() => t.close());

  const visitor = () => new TestBrowser(t.app);
  /** Moves the clock; the accounts refresh their access as the web app would. */
  async function later(ms: number): Promise<void> {
    clock.advance(ms);
    for (const owner of [alice, bob]) expect((await owner.post('/user-service/get-token')).statusCode).toBe(200);
  }

  async function link(owner: TestBrowser, body: Record<string, unknown>): Promise<ShareLinkDto> {
    const response = await owner.post('/share-service/links', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as ShareLinkDto;
  }

  async function tree() {
    const root = await createFolder(alice, `Trip ${randomBytes(3).toString('hex')}`);
    const inner = await createFolder(alice, 'Day 1', root._id);
    const photo = await upload(alice, 'notes.txt', 'first day', root._id);
    const deep = await upload(alice, 'deep.txt', 'deep inside', inner._id);
    const outside = await upload(alice, 'secret.txt', 'not shared');
    return { root, inner, photo, deep, outside };
  }

  it('a folder link shows the folder, its subfolders and files, and nothing above it or in the trash', async () => {
    const { root, inner, photo, deep, outside } = await tree();
    const trashed = await upload(alice, 'old.txt', 'trashed', root._id);
    expect((await alice.patch('/file-service/trash', { id: trashed._id })).statusCode).toBe(200);
    const shared = await link(alice, { itemType: 'folder', itemId: root._id });
    expect(shared.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const v = visitor();

    const info = await v.get(`${PUBLIC}/${shared.token}`);
    expect(info.statusCode).toBe(200);
    expect(info.headers['cache-control']).toBe('private, no-store');
    expect(info.headers['x-robots-tag']).toContain('noindex');
    expect(info.json()).toEqual<SharedLinkInfoDto>({
      kind: 'view',
      itemType: 'folder',
      passwordRequired: false,
      name: root.name,
      allowDownload: true,
      expiresAt: null,
      folder: { id: root._id, name: root.name },
    });
    // Nothing of the owner is in any answer.
    expect(info.body).not.toContain(root.owner);

    const top = (await v.get(`${PUBLIC}/${shared.token}/list`)).json() as SharedListingDto;
    expect(top.path).toEqual([{ id: root._id, name: root.name }]);
    expect(top.folders).toEqual([{ id: inner._id, name: 'Day 1' }]);
    expect(top.files.map((f) => f.filename)).toEqual(['notes.txt']);
    expect(top.files[0]).toMatchObject({ id: photo._id, size: 9, hasThumbnail: false, isVideo: false });
    expect(JSON.stringify(top)).not.toContain(root.owner);

    const down = (await v.get(`${PUBLIC}/${shared.token}/list?folder=${inner._id}`)).json() as SharedListingDto;
    expect(down.path.map((f) => f.name)).toEqual([root.name, 'Day 1']);
    expect(down.files.map((f) => f.id)).toEqual([deep._id]);

    // Items added later appear.
    await upload(alice, 'later.txt', 'added later', root._id);
    const again = (await v.get(`${PUBLIC}/${shared.token}/list`)).json() as SharedListingDto;
    expect(again.files.map((f) => f.filename).sort()).toEqual(['later.txt', 'notes.txt']);

    const file = await v.get(`${PUBLIC}/${shared.token}/files/${deep._id}/download`);
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('deep inside');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.headers['content-disposition']).toContain('attachment');

    // Ids from outside the shared folder, even the owner's own, are not found with this token.
    const home = await alice.get('/folder-service/list');
    expect(home.statusCode).toBe(200);
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${outside._id}/download`)).statusCode).toBe(404);
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${trashed._id}/download`)).statusCode).toBe(404);
    const sibling = await createFolder(alice, 'Sibling');
    expect((await v.get(`${PUBLIC}/${shared.token}/list?folder=${sibling._id}`)).statusCode).toBe(404);
    const bobs = await createFolder(bob, 'Bob’s');
    expect((await v.get(`${PUBLIC}/${shared.token}/list?folder=${bobs._id}`)).statusCode).toBe(404);
  });

  it('"Download all" zips the shared folder (or a folder inside it) without the trash', async () => {
    const { root, inner } = await tree();
    const trashed = await upload(alice, 'gone.txt', 'trashed', inner._id);
    await alice.patch('/file-service/trash', { id: trashed._id });
    const shared = await link(alice, { itemType: 'folder', itemId: root._id });
    const zip = await visitor().request('GET', `${PUBLIC}/${shared.token}/zip`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const all = await unzip(zip.rawPayload);
    expect([...all.files.keys()].sort()).toEqual([`${root.name}/Day 1/deep.txt`, `${root.name}/notes.txt`]);
    expect(all.files.get(`${root.name}/Day 1/deep.txt`)!.toString()).toBe('deep inside');
    const part = await visitor().request('GET', `${PUBLIC}/${shared.token}/zip?folder=${inner._id}`);
    expect([...(await unzip(part.rawPayload)).files.keys()]).toEqual(['Day 1/deep.txt']);
  });

  it('streams a shared video for the preview, by ranges, without using up a download', async () => {
    const folder = await createFolder(alice, 'Films');
    // An MP4 header and noise: a video by its content type, long enough for ranges across chunks.
    const video = Buffer.concat([
      Buffer.from('000000206674797069736f6d0000020069736f6d69736f32617663316d703431', 'hex'),
      randomBytes(300_000),
    ]);
    const film = await upload(alice, 'film.mp4', video, folder._id);
    const shared = await link(alice, { itemType: 'folder', itemId: folder._id, maxDownloads: 1, allowDownload: true });
    const v = visitor();
    const listed = (await v.get(`${PUBLIC}/${shared.token}/list`)).json() as SharedListingDto;
    expect(listed.files[0]).toMatchObject({ id: film._id, isVideo: true });
    const part = await v.request('GET', `${PUBLIC}/${shared.token}/files/${film._id}/preview`, undefined, { range: 'bytes=100000-199999' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-type']).toBe('video/mp4');
    expect(part.rawPayload.equals(video.subarray(100_000, 200_000))).toBe(true);
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${film._id}/preview`)).statusCode).toBe(200);
    // The one download is still there.
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${film._id}/download`)).rawPayload.equals(video)).toBe(true);
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${film._id}/download`)).statusCode).toBe(410);
  });

  it('a file link serves that file only; a trashed item or a revoked link answers not found', async () => {
    const one = await upload(alice, 'one.txt', 'the one');
    const other = await upload(alice, 'other.txt', 'another');
    const shared = await link(alice, { itemType: 'file', itemId: one._id });
    const v = visitor();
    const info = (await v.get(`${PUBLIC}/${shared.token}`)).json() as SharedLinkInfoDto;
    expect(info.file).toMatchObject({ id: one._id, filename: 'one.txt', size: 7 });
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${one._id}/download`)).body).toBe('the one');
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${other._id}/download`)).statusCode).toBe(404);
    expect((await v.get(`${PUBLIC}/${shared.token}/list`)).statusCode).toBe(404);

    await alice.patch('/file-service/trash', { id: one._id });
    expect((await v.get(`${PUBLIC}/${shared.token}`)).statusCode).toBe(404);
    await alice.patch('/file-service/restore', { id: one._id });
    expect((await v.get(`${PUBLIC}/${shared.token}`)).statusCode).toBe(200);

    expect((await bob.delete(`/share-service/links/${shared.id}`)).statusCode).toBe(404);
    expect((await alice.delete(`/share-service/links/${shared.id}`)).statusCode).toBe(204);
    expect((await v.get(`${PUBLIC}/${shared.token}`)).statusCode).toBe(404);
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${one._id}/download`)).statusCode).toBe(404);
  });

  it('a password is asked before anything is shown, wrong guesses are throttled, and a new password ends old access', async () => {
    const { root } = await tree();
    const shared = await link(alice, { itemType: 'folder', itemId: root._id, password: 'open sesame' });
    expect(shared.hasPassword).toBe(true);
    expect(JSON.stringify(shared)).not.toContain('open sesame');
    const v = visitor();
    expect((await v.get(`${PUBLIC}/${shared.token}`)).json()).toEqual({ kind: 'view', itemType: 'folder', passwordRequired: true });
    const locked = await v.get(`${PUBLIC}/${shared.token}/list`);
    expect(locked.statusCode).toBe(401);
    expect((locked.json() as ApiErrorBody).code).toBe('PASSWORD_REQUIRED');
    expect((await v.get(`${PUBLIC}/${shared.token}/zip`)).statusCode).toBe(401);

    const wrong = await v.post(`${PUBLIC}/${shared.token}/unlock`, { password: 'guess' });
    expect(wrong.statusCode).toBe(401);
    expect((wrong.json() as ApiErrorBody).code).toBe('WRONG_PASSWORD');
    const right = await v.post(`${PUBLIC}/${shared.token}/unlock`, { password: 'open sesame' });
    expect(right.statusCode).toBe(200);
    expect((right.json() as SharedLinkInfoDto).name).toBe(root.name);
    const cookie = right.headers['set-cookie'] as string;
    expect(cookie).toContain(`Path=${PUBLIC}/${shared.token}`);
    expect(cookie).toContain('HttpOnly');
    expect((await v.get(`${PUBLIC}/${shared.token}/list`)).statusCode).toBe(200);

    // A changed password ends the access given under the old one.
    await alice.patch(`/share-service/links/${shared.id}`, { password: 'new secret' });
    expect((await v.get(`${PUBLIC}/${shared.token}/list`)).statusCode).toBe(401);

    // Ten wrong guesses from one address lock the link for that address, the right password included;
    // a visitor elsewhere is not held back.
    const guesser = visitor();
    guesser.remoteAddress = '10.0.0.7';
    for (let i = 0; i < 10; i++)
      expect((await guesser.post(`${PUBLIC}/${shared.token}/unlock`, { password: `nope ${i}` })).statusCode).toBe(401);
    const throttled = await guesser.post(`${PUBLIC}/${shared.token}/unlock`, { password: 'new secret' });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBeDefined();
    expect((await visitor().post(`${PUBLIC}/${shared.token}/unlock`, { password: 'new secret' })).statusCode).toBe(200);
    await later(16 * 60_000);
    expect((await guesser.post(`${PUBLIC}/${shared.token}/unlock`, { password: 'new secret' })).statusCode).toBe(200);

    // Removing the password opens the link.
    await alice.patch(`/share-service/links/${shared.id}`, { password: null });
    expect((await visitor().get(`${PUBLIC}/${shared.token}/list`)).statusCode).toBe(200);
  });

  it('wrong guesses are also throttled per address, across links', async () => {
    const a = await link(alice, { itemType: 'file', itemId: (await upload(alice, 'a.txt', 'a'))._id, password: 'pass-a' });
    const guesser = visitor();
    guesser.remoteAddress = '10.9.9.9';
    const links: ShareLinkDto[] = [a];
    for (let i = 0; i < 3; i++)
      links.push(await link(alice, { itemType: 'file', itemId: (await upload(alice, `b${i}.txt`, 'b'))._id, password: 'pass-b' }));
    let refused = 0;
    for (let i = 0; i < 32; i++) {
      const r = await guesser.post(`${PUBLIC}/${links[i % 4]!.token}/unlock`, { password: `x${i}` });
      if (r.statusCode === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    // Someone else, elsewhere, is not locked out of a link that was guessed at only 8 times.
    expect((await visitor().post(`${PUBLIC}/${a.token}/unlock`, { password: 'pass-a' })).statusCode).toBe(200);
  });

  it('expires exactly at its expiry date', async () => {
    const file = await upload(alice, 'soon.txt', 'soon');
    const expiresAt = new Date(clock.now() + HOUR).toISOString();
    const shared = await link(alice, { itemType: 'file', itemId: file._id, expiresAt });
    expect(shared.expiresAt).toBe(expiresAt);
    await later(HOUR - 1);
    expect((await visitor().get(`${PUBLIC}/${shared.token}`)).statusCode).toBe(200);
    clock.advance(1);
    const expired = await visitor().get(`${PUBLIC}/${shared.token}`);
    expect(expired.statusCode).toBe(410);
    expect((expired.json() as ApiErrorBody).code).toBe('LINK_EXPIRED');
    expect((await visitor().get(`${PUBLIC}/${shared.token}/files/${file._id}/download`)).statusCode).toBe(410);
    const listed = (await alice.get(`/share-service/links?itemId=${file._id}`)).json() as { links: ShareLinkDto[] };
    expect(listed.links[0]!.active).toBe(false);
    // Extending it brings it back.
    await alice.patch(`/share-service/links/${shared.id}`, { expiresAt: null });
    expect((await visitor().get(`${PUBLIC}/${shared.token}`)).statusCode).toBe(200);
  });

  it('serves a limited number of downloads; a HEAD or a preview uses none', async () => {
    const data = randomBytes(5000);
    const file = await upload(alice, 'twice.bin', data);
    const shared = await link(alice, { itemType: 'file', itemId: file._id, maxDownloads: 2 });
    const url = `${PUBLIC}/${shared.token}/files/${file._id}/download`;
    expect((await visitor().request('HEAD', url)).statusCode).toBe(200);
    // A range is not honoured: each download of a limited link is the whole file.
    const first = await visitor().request('GET', url, undefined, { range: 'bytes=0-9' });
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(data)).toBe(true);
    expect((await visitor().get(url)).statusCode).toBe(200);
    const third = await visitor().get(url);
    expect(third.statusCode).toBe(410);
    const [listed] = ((await alice.get('/share-service/links')).json() as { links: ShareLinkDto[] }).links.filter(
      (l) => l.id === shared.id,
    );
    expect(listed).toMatchObject({ downloads: 2, maxDownloads: 2, active: false });
    expect(listed!.lastAccessAt).not.toBeNull();
  });

  it('a view-only link shows and previews but never downloads', async () => {
    const { root, photo } = await tree();
    const shared = await link(alice, { itemType: 'folder', itemId: root._id, allowDownload: false });
    const v = visitor();
    expect(((await v.get(`${PUBLIC}/${shared.token}`)).json() as SharedLinkInfoDto).allowDownload).toBe(false);
    expect((await v.get(`${PUBLIC}/${shared.token}/list`)).statusCode).toBe(200);
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${photo._id}/download`)).statusCode).toBe(403);
    expect((await v.get(`${PUBLIC}/${shared.token}/zip`)).statusCode).toBe(403);
    // A text file has no preview; only pictures and videos do.
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${photo._id}/preview`)).statusCode).toBe(404);

    const picture = await upload(
      alice,
      'espresso.jpg',
      readFileSync(path.join(import.meta.dirname, '../fixtures/vision/espresso.jpg')),
      root._id,
    );
    await t.app.background.drainJobs();
    const listed = (await v.get(`${PUBLIC}/${shared.token}/list`)).json() as SharedListingDto;
    expect(listed.files.find((f) => f.id === picture._id)).toMatchObject({ hasThumbnail: true, isImage: true });
    const thumbnail = await v.get(`${PUBLIC}/${shared.token}/files/${picture._id}/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    const preview = await v.get(`${PUBLIC}/${shared.token}/files/${picture._id}/preview`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect(preview.headers['content-disposition']).toContain('inline');
    expect((await v.get(`${PUBLIC}/${shared.token}/files/${picture._id}/download`)).statusCode).toBe(403);
  });

  it('a drop link takes files into the folder, named as given and made unique, within its limits, and shows nothing', async () => {
    const { root } = await tree();
    const shared = await link(alice, { itemType: 'folder', itemId: root._id, kind: 'drop', maxFiles: 3, maxFileBytes: 1000 });
    const v = visitor();
    const info = (await v.get(`${PUBLIC}/${shared.token}`)).json() as SharedLinkInfoDto;
    expect(info).toEqual({
      kind: 'drop',
      itemType: 'folder',
      passwordRequired: false,
      name: root.name,
      expiresAt: null,
      drop: { maxFileBytes: 1000, maxFiles: 3, filesLeft: 3 },
    });
    expect((await v.get(`${PUBLIC}/${shared.token}/list`)).statusCode).toBe(404);
    expect((await v.get(`${PUBLIC}/${shared.token}/zip`)).statusCode).toBe(404);

    const send = async (filename: string, data: Buffer | string, name?: string) => {
      const { body, contentType } = await multipartBody([
        ...(name ? [{ name: 'name', value: name }] : []),
        { name: 'file', filename, data },
      ]);
      return v.request('POST', `${PUBLIC}/${shared.token}/upload`, body, { 'content-type': contentType });
    };
    const first = await send('notes.txt', 'from a guest', 'Grace');
    expect(first.statusCode).toBe(201);
    // notes.txt is taken in that folder: the guest's copy gets its own name.
    expect(first.json()).toEqual({ filename: 'notes (1).txt', size: 12 });
    expect((await send('notes.txt', 'again')).json()).toMatchObject({ filename: 'notes (2).txt' });

    const tooBig = await send('big.bin', randomBytes(5000));
    expect(tooBig.statusCode).toBe(413);
    const files = (await alice.get(`/file-service/list?parent=${root._id}`)).json() as { _id: string; filename: string }[];
    expect(files.map((f) => f.filename).sort()).toEqual(['notes (1).txt', 'notes (2).txt', 'notes.txt']);

    // The refused file did not use up the allowance: one more is taken, then none.
    expect((await send('last.txt', 'last')).statusCode).toBe(201);
    const full = await send('over.txt', 'over');
    expect(full.statusCode).toBe(410);
    expect(((await v.get(`${PUBLIC}/${shared.token}`)).json() as SharedLinkInfoDto).drop?.filesLeft).toBe(0);

    const dropped = files.find((f) => f.filename === 'notes (1).txt')!;
    const origin = await alice.get(`/share-service/drops/${dropped._id}`);
    expect(origin.json()).toMatchObject({ linkId: shared.id, uploaderName: 'Grace' });
    expect((await bob.get(`/share-service/drops/${dropped._id}`)).statusCode).toBe(404);
    const download = await alice.get(`/file-service/download/${dropped._id}`);
    expect(download.body).toBe('from a guest');
  });

  it('lists, edits and revokes the owner’s links; another account sees none of them', async () => {
    const file = await upload(alice, 'listed.txt', 'x');
    const shared = await link(alice, { itemType: 'file', itemId: file._id, maxDownloads: 5 });
    const mine = ((await alice.get(`/share-service/links?itemId=${file._id}`)).json() as { links: ShareLinkDto[] }).links;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: shared.id, itemName: 'listed.txt', itemType: 'file', kind: 'view', downloads: 0, active: true });
    expect(((await bob.get('/share-service/links')).json() as { links: ShareLinkDto[] }).links).toEqual([]);
    expect((await bob.patch(`/share-service/links/${shared.id}`, { maxDownloads: 1 })).statusCode).toBe(404);
    const edited = await alice.patch(`/share-service/links/${shared.id}`, { maxDownloads: null, allowDownload: false });
    expect(edited.json()).toMatchObject({ maxDownloads: null, allowDownload: false });
    // Renaming the item shows in its links.
    await alice.patch('/file-service/rename', { id: file._id, title: 'renamed.txt' });
    expect(((await alice.get(`/share-service/links?itemId=${file._id}`)).json() as { links: ShareLinkDto[] }).links[0]!.itemName).toBe(
      'renamed.txt',
    );
  });

  it('lists the files shared by the share popup (public or temporary) beside the links, never the trash or another account’s', async () => {
    const pub = await upload(alice, 'spec-public.txt', 'x');
    const temp = await upload(alice, 'spec-temp.txt', 'x');
    const trashed = await upload(alice, 'spec-trashed.txt', 'x');
    await alice.patch(`/file-service/make-public/${pub._id}`);
    await alice.patch(`/file-service/make-one/${temp._id}`);
    await alice.patch(`/file-service/make-public/${trashed._id}`);
    await alice.patch('/file-service/trash', { id: trashed._id });
    const bobs = await upload(bob, 'bob-public.txt', 'x');
    await bob.patch(`/file-service/make-public/${bobs._id}`);
    const listed = (await alice.get('/share-service/file-links')).json() as { _id: string; metadata: { linkType?: string } }[];
    expect(listed.map((f) => [f._id, f.metadata.linkType]).sort()).toEqual(
      [
        [temp._id, 'one'],
        [pub._id, 'public'],
      ].sort(),
    );
    expect((await visitor().get('/share-service/file-links')).statusCode).toBe(401);
  });

  it('refuses bad input with a clear error and creates nothing', async () => {
    const file = await upload(alice, 'bad-input.txt', 'x');
    const folder = await createFolder(alice, 'Bad input');
    const bobsFile = await upload(bob, 'bobs.txt', 'x');
    const cases: [Record<string, unknown>, number][] = [
      [{}, 400],
      [{ itemType: 'disk', itemId: file._id }, 400],
      [{ itemType: 'file', itemId: 42 }, 400],
      [{ itemType: 'file', itemId: 'x'.repeat(65) }, 400],
      [{ itemType: 'file', itemId: file._id, surprise: true }, 400],
      [{ itemType: 'file', itemId: file._id, password: 'abc' }, 400],
      [{ itemType: 'file', itemId: file._id, password: 'x'.repeat(257) }, 400],
      [{ itemType: 'file', itemId: file._id, maxDownloads: 0 }, 400],
      [{ itemType: 'file', itemId: file._id, maxDownloads: 1.5 }, 400],
      [{ itemType: 'file', itemId: file._id, expiresAt: 'tomorrow' }, 400],
      [{ itemType: 'file', itemId: file._id, expiresAt: new Date(clock.now() - 1000).toISOString() }, 400],
      [{ itemType: 'file', itemId: file._id, kind: 'drop' }, 400],
      [{ itemType: 'file', itemId: file._id, kind: 'upload' }, 400],
      [{ itemType: 'file', itemId: bobsFile._id }, 404],
      [{ itemType: 'folder', itemId: file._id }, 404],
      [{ itemType: 'file', itemId: folder._id }, 404],
    ];
    for (const [body, status] of cases) {
      const response = await alice.post('/share-service/links', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect((response.json() as ApiErrorBody).code).toBeDefined();
    }
    expect(((await alice.get(`/share-service/links?itemId=${file._id}`)).json() as { links: unknown[] }).links).toEqual([]);
    expect((await alice.request('POST', '/share-service/links', '{not json', { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect((await visitor().post('/share-service/links', { itemType: 'file', itemId: file._id })).statusCode).toBe(401);
    expect((await alice.patch('/share-service/links/nope', { password: 'abcd' })).statusCode).toBe(404);

    const shared = await link(alice, { itemType: 'folder', itemId: folder._id });
    const v = visitor();
    expect((await v.get(`${PUBLIC}/short`)).statusCode).toBe(400);
    expect((await v.get(`${PUBLIC}/${'a'.repeat(43)}`)).statusCode).toBe(404);
    expect((await v.get(`${PUBLIC}/${shared.token}/list?after=garbage`)).statusCode).toBe(400);
    expect((await v.get(`${PUBLIC}/${shared.token}/list?sortBy=random`)).statusCode).toBe(400);
    expect((await v.post(`${PUBLIC}/${shared.token}/unlock`, { password: '' })).statusCode).toBe(400);
    expect((await v.post(`${PUBLIC}/${shared.token}/upload`, 'x')).statusCode).toBe(400);
    expect((await v.request('POST', `${PUBLIC}/${shared.token}/upload`, 'x', { 'content-type': 'multipart/form-data' })).statusCode).toBe(
      404,
    );
  });

  it('pages through a large shared folder by cursor, in order, without repeats', async () => {
    const folder = await createFolder(alice, 'Many');
    for (let i = 0; i < 105; i++) await upload(alice, `f${String(i).padStart(3, '0')}.txt`, 'x', folder._id);
    const shared = await link(alice, { itemType: 'folder', itemId: folder._id });
    const first = (await visitor().get(`${PUBLIC}/${shared.token}/list`)).json() as SharedListingDto;
    expect(first.files).toHaveLength(100);
    expect(first.next).not.toBeNull();
    const second = (await visitor().get(`${PUBLIC}/${shared.token}/list?after=${first.next}`)).json() as SharedListingDto;
    expect(second.files.map((f) => f.filename)).toEqual(['f100.txt', 'f101.txt', 'f102.txt', 'f103.txt', 'f104.txt']);
    expect(second.next).toBeNull();
  });
});
