import type { FileDto, FolderDto, ItemShareDto } from '@nimbus/common';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles, listFolders, upload } from '../helpers/drive.js';
import { share } from '../item-shares/helpers.js';
import { rcloneAs, LOCK_BODY, hrefs, startDavApp, type DavAccount, type DavHarness } from './dav-support.js';

const SHARED = '/dav/Shared%20with%20me';
const QUOTA_PROPS = '<D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>';
const required = process.env.CI === 'true';
const hasRclone = existsSync('/usr/bin/rclone');

function usedBytes(xml: string): number {
  return Number(/<D:quota-used-bytes>(\d+)<\/D:quota-used-bytes>/.exec(xml)?.[1]);
}

describe('WebDAV: Shared with me', () => {
  let h: DavHarness;
  let owner: DavAccount;
  let other: DavAccount;
  let viewer: DavAccount;
  let editor: DavAccount;
  let stranger: DavAccount;
  let photos: FolderDto;
  let year: FolderDto;
  let plan: FileDto;
  let editorShare: ItemShareDto;

  const move = (who: DavAccount, from: string, to: string) =>
    who.dav.request('MOVE', from, { headers: { destination: `${h.origin}${to}`, overwrite: 'F' } });
  const copy = (who: DavAccount, from: string, to: string) =>
    who.dav.request('COPY', from, { headers: { destination: `${h.origin}${to}`, overwrite: 'F' } });

  beforeAll(async () => {
    h = await startDavApp();
    [owner, other, viewer, editor, stranger] = [
      await h.account(),
      await h.account(),
      await h.account(),
      await h.account(),
      await h.account(),
    ];
    photos = await createFolder(owner.browser, 'Photos');
    year = await createFolder(owner.browser, '2024', photos._id);
    await upload(owner.browser, 'beach.jpg', 'sand and sea', year._id);
    await upload(owner.browser, 'notes.txt', 'first notes', photos._id);
    plan = await upload(owner.browser, 'plan.txt', 'the plan');
    const otherPhotos = await createFolder(other.browser, 'Photos');
    await upload(other.browser, 'cat.jpg', 'a cat', otherPhotos._id);

    await share(owner.browser, 'folder', photos._id, viewer.email, 'viewer');
    await share(owner.browser, 'file', plan._id, viewer.email, 'viewer');
    await share(other.browser, 'folder', otherPhotos._id, viewer.email, 'viewer');
    editorShare = await share(owner.browser, 'folder', photos._id, editor.email, 'editor');
  });
  afterAll(() => h.close());

  describe('the virtual collection', () => {
    it('shows at the top of the drive of an account something is shared with, and only there', async () => {
      const root = await viewer.dav.propfind('/dav/', '1');
      expect(root.status).toBe(207);
      expect(hrefs(root.text)).toEqual(['/dav/', '/dav/Shared with me/']);
      expect(hrefs((await stranger.dav.propfind('/dav/', '1')).text)).toEqual(['/dav/']);
      expect(hrefs((await owner.dav.propfind('/dav/', '1')).text)).not.toContain('/dav/Shared with me/');
    });

    it('lists each shared item by name; a second item of one name carries its owner, and the first keeps its name', async () => {
      const listing = await viewer.dav.propfind(`${SHARED}/`, '1');
      expect(listing.status).toBe(207);
      expect(hrefs(listing.text).sort()).toEqual(
        [
          '/dav/Shared with me/',
          '/dav/Shared with me/Photos/',
          `/dav/Shared with me/Photos (${other.email})/`,
          '/dav/Shared with me/plan.txt',
        ].sort(),
      );
      expect(listing.text).toContain('<D:getcontentlength>8</D:getcontentlength>');
      const cats = await viewer.dav.propfind(`${SHARED}/${encodeURIComponent(`Photos (${other.email})`)}/`, '1');
      expect(hrefs(cats.text)).toContain(`/dav/Shared with me/Photos (${other.email})/cat.jpg`);
    });

    it('tells apart items of one name by owner, then by share, and never renames what it showed before', async () => {
      const [ann, bob, me] = [await h.account(), await h.account(), await h.account()];
      const listing = async () =>
        hrefs((await me.dav.propfind(`${SHARED}/`, '1')).text)
          .slice(1)
          .sort();
      const first = await upload(ann.browser, 'report.pdf', 'first report');
      await share(ann.browser, 'file', first._id, me.email, 'viewer');
      expect(await listing()).toEqual(['/dav/Shared with me/report.pdf']);
      const second = await upload(bob.browser, 'report.pdf', 'second report');
      await share(bob.browser, 'file', second._id, me.email, 'viewer');
      const third = await upload(ann.browser, 'report.pdf', 'third report', (await createFolder(ann.browser, 'Old'))._id);
      await share(ann.browser, 'file', third._id, me.email, 'viewer');
      const before = await listing();
      const fourth = await upload(ann.browser, 'report.pdf', 'fourth report', (await createFolder(ann.browser, 'Older'))._id);
      const fourthShare = await share(ann.browser, 'file', fourth._id, me.email, 'viewer');
      const names = {
        first: 'report.pdf',
        second: `report (${bob.email}).pdf`,
        third: `report (${ann.email}).pdf`,
        fourth: `report (${ann.email} ~${fourthShare.id.slice(0, 8)}).pdf`,
      };
      const listed = await listing();
      expect(listed).toEqual(
        Object.values(names)
          .map((n) => `/dav/Shared with me/${n}`)
          .sort(),
      );
      for (const name of before) expect(listed).toContain(name);
      for (const [which, name] of Object.entries(names)) {
        expect(listed).toContain(`/dav/Shared with me/${name}`);
        expect((await me.dav.get(`${SHARED}/${encodeURIComponent(name)}`)).text).toBe(`${which} report`);
      }
    });

    it('cannot be deleted, moved, copied, written into or given properties: 403', async () => {
      expect((await viewer.dav.request('DELETE', `${SHARED}/`)).status).toBe(403);
      expect((await move(viewer, `${SHARED}/`, '/dav/elsewhere/')).status).toBe(403);
      expect((await copy(viewer, `${SHARED}/`, '/dav/elsewhere/')).status).toBe(403);
      expect((await editor.dav.put(`${SHARED}/new.txt`, 'x')).status).toBe(403);
      expect((await editor.dav.request('MKCOL', `${SHARED}/New`)).status).toBe(403);
      expect((await editor.dav.request('LOCK', `${SHARED}/`, { body: LOCK_BODY() })).status).toBe(403);
      expect((await editor.dav.request('LOCK', `${SHARED}/locked.txt`, { body: LOCK_BODY() })).status).toBe(403);
      const patch = '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:a>1</Z:a></D:prop></D:set></D:propertyupdate>';
      expect((await editor.dav.request('PROPPATCH', `${SHARED}/`, { body: patch })).status).toBe(403);
      expect((await move(editor, '/dav/', `${SHARED}/x/`)).status).toBe(403);
    });

    it("an account's own item named Shared with me keeps the name and hides the virtual collection", async () => {
      const me = await h.account();
      await share(owner.browser, 'file', plan._id, me.email, 'viewer');
      expect(hrefs((await me.dav.propfind(`${SHARED}/`, '1')).text)).toContain('/dav/Shared with me/plan.txt');
      const own = await createFolder(me.browser, 'Shared with me');
      await upload(me.browser, 'mine.txt', 'mine', own._id);
      expect(hrefs((await me.dav.propfind('/dav/', '1')).text)).toEqual(['/dav/', '/dav/Shared with me/']);
      expect(hrefs((await me.dav.propfind(`${SHARED}/`, '1')).text)).toEqual(['/dav/Shared with me/', '/dav/Shared with me/mine.txt']);
      expect((await me.dav.get(`${SHARED}/plan.txt`)).status).toBe(404);
      expect((await me.dav.put(`${SHARED}/more.txt`, 'more')).status).toBe(201);
      expect((await listFiles(me.browser, { parent: own._id })).map((f) => f.filename).sort()).toEqual(['mine.txt', 'more.txt']);
    });
  });

  describe('a viewer', () => {
    it('reads two levels deep: PROPFIND, GET, HEAD and ranges', async () => {
      expect(hrefs((await viewer.dav.propfind(`${SHARED}/Photos/`, '1')).text)).toEqual([
        '/dav/Shared with me/Photos/',
        '/dav/Shared with me/Photos/2024/',
        '/dav/Shared with me/Photos/notes.txt',
      ]);
      expect(hrefs((await viewer.dav.propfind(`${SHARED}/Photos/2024/`, '1')).text)).toEqual([
        '/dav/Shared with me/Photos/2024/',
        '/dav/Shared with me/Photos/2024/beach.jpg',
      ]);
      const beach = await viewer.dav.get(`${SHARED}/Photos/2024/beach.jpg`);
      expect(beach.status).toBe(200);
      expect(beach.text).toBe('sand and sea');
      const range = await viewer.dav.get(`${SHARED}/Photos/2024/beach.jpg`, { range: 'bytes=0-3' });
      expect(range.status).toBe(206);
      expect(range.text).toBe('sand');
      const head = await viewer.dav.request('HEAD', `${SHARED}/plan.txt`);
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe('8');
      expect((await viewer.dav.get(`${SHARED}/plan.txt`)).text).toBe('the plan');
    });

    it('changes nothing: PUT, MKCOL, DELETE, MOVE, COPY in, PROPPATCH and LOCK answer 403', async () => {
      expect((await viewer.dav.put(`${SHARED}/Photos/new.txt`, 'x')).status).toBe(403);
      expect((await viewer.dav.put(`${SHARED}/Photos/notes.txt`, 'x')).status).toBe(403);
      expect((await viewer.dav.put(`${SHARED}/plan.txt`, 'x')).status).toBe(403);
      expect((await viewer.dav.request('MKCOL', `${SHARED}/Photos/New`)).status).toBe(403);
      expect((await viewer.dav.request('DELETE', `${SHARED}/Photos/notes.txt`)).status).toBe(403);
      expect((await viewer.dav.request('DELETE', `${SHARED}/Photos/`)).status).toBe(403);
      expect((await move(viewer, `${SHARED}/Photos/notes.txt`, `${SHARED}/Photos/2024/notes.txt`)).status).toBe(403);
      expect((await copy(viewer, `${SHARED}/Photos/notes.txt`, `${SHARED}/Photos/2024/notes.txt`)).status).toBe(403);
      const patch = '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:a>1</Z:a></D:prop></D:set></D:propertyupdate>';
      expect((await viewer.dav.request('PROPPATCH', `${SHARED}/Photos/notes.txt`, { body: patch })).status).toBe(403);
      expect((await viewer.dav.request('LOCK', `${SHARED}/Photos/notes.txt`, { body: LOCK_BODY() })).status).toBe(403);
      expect((await listFiles(owner.browser, { parent: photos._id })).map((f) => f.filename)).toEqual(['notes.txt']);
      expect((await owner.dav.get('/dav/Photos/notes.txt')).text).toBe('first notes');
      expect((await listFolders(owner.browser, { parent: photos._id })).map((f) => f.name)).toEqual(['2024']);
    });

    it("cannot UNLOCK the owner's lock (locks are each account's own: the token matches none of the viewer's)", async () => {
      const lock = await owner.dav.request('LOCK', '/dav/Photos/notes.txt', { body: LOCK_BODY() });
      expect(lock.status).toBe(200);
      const token = lock.headers.get('lock-token')!;
      const unlock = await viewer.dav.request('UNLOCK', `${SHARED}/Photos/notes.txt`, { headers: { 'lock-token': token } });
      expect(unlock.status).toBe(409);
      expect(unlock.text).toContain('lock-token-matches-request-uri');
      expect((await viewer.dav.get(`${SHARED}/Photos/notes.txt`)).text).toBe('first notes');
      // The lock stood: its owner still releases it.
      expect((await owner.dav.request('UNLOCK', '/dav/Photos/notes.txt', { headers: { 'lock-token': token } })).status).toBe(204);
    });

    it('may copy a shared file into their own drive, charged to their own quota', async () => {
      const before = usedBytes((await viewer.dav.propfind('/dav/', '0', QUOTA_PROPS)).text);
      expect((await copy(viewer, `${SHARED}/Photos/2024/beach.jpg`, '/dav/beach-copy.jpg')).status).toBe(201);
      expect((await viewer.dav.get('/dav/beach-copy.jpg')).text).toBe('sand and sea');
      expect(usedBytes((await viewer.dav.propfind('/dav/', '0', QUOTA_PROPS)).text)).toBe(before + 12);
      expect((await listFiles(viewer.browser)).map((f) => f.filename)).toContain('beach-copy.jpg');
    });
  });

  describe('an editor', () => {
    it("PUTs new files and over existing ones: the owner's files", async () => {
      const created = await editor.dav.put(`${SHARED}/Photos/2024/sunset.jpg`, 'orange sky');
      expect(created.status).toBe(201);
      const sunset = (await listFiles(owner.browser, { parent: year._id })).find((f) => f.filename === 'sunset.jpg');
      expect(sunset?.metadata.owner).toBe(owner.id);
      expect((await owner.dav.get('/dav/Photos/2024/sunset.jpg')).text).toBe('orange sky');
      expect((await editor.dav.put(`${SHARED}/Photos/notes.txt`, 'second notes')).status).toBe(204);
      expect((await owner.dav.get('/dav/Photos/notes.txt')).text).toBe('second notes');
      expect((await listFiles(editor.browser)).map((f) => f.filename)).not.toContain('sunset.jpg');
    });

    it('makes folders, moves and copies within the share, and locks and unlocks', async () => {
      expect((await editor.dav.request('MKCOL', `${SHARED}/Photos/Trips`)).status).toBe(201);
      expect((await listFolders(owner.browser, { parent: photos._id })).map((f) => f.name).sort()).toEqual(['2024', 'Trips']);
      expect((await move(editor, `${SHARED}/Photos/2024/sunset.jpg`, `${SHARED}/Photos/Trips/sunset.jpg`)).status).toBe(201);
      expect((await owner.dav.get('/dav/Photos/Trips/sunset.jpg')).text).toBe('orange sky');
      expect((await copy(editor, `${SHARED}/Photos/Trips/`, `${SHARED}/Photos/Trips copy/`)).status).toBe(201);
      expect((await owner.dav.get('/dav/Photos/Trips%20copy/sunset.jpg')).text).toBe('orange sky');
      const lock = await editor.dav.request('LOCK', `${SHARED}/Photos/Trips/sunset.jpg`, { body: LOCK_BODY() });
      expect(lock.status).toBe(200);
      const token = lock.headers.get('lock-token')!;
      expect((await editor.dav.put(`${SHARED}/Photos/Trips/sunset.jpg`, 'blocked')).status).toBe(423);
      expect((await editor.dav.put(`${SHARED}/Photos/Trips/sunset.jpg`, 'red sky', { if: `(${token})` })).status).toBe(204);
      expect((await editor.dav.request('UNLOCK', `${SHARED}/Photos/Trips/sunset.jpg`, { headers: { 'lock-token': token } })).status).toBe(
        204,
      );
      expect((await owner.dav.get('/dav/Photos/Trips/sunset.jpg')).text).toBe('red sky');
      const patch =
        '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:tag>sunset</Z:tag></D:prop></D:set></D:propertyupdate>';
      expect((await editor.dav.request('PROPPATCH', `${SHARED}/Photos/Trips/sunset.jpg`, { body: patch })).status).toBe(207);
      const seen = await owner.dav.propfind(
        '/dav/Photos/Trips/sunset.jpg',
        '0',
        '<D:propfind xmlns:D="DAV:" xmlns:Z="urn:z"><D:prop><Z:tag/></D:prop></D:propfind>',
      );
      expect(seen.text).toContain('>sunset</');
    });

    it("DELETE puts the item into the owner's trash", async () => {
      expect((await editor.dav.request('DELETE', `${SHARED}/Photos/Trips%20copy/`)).status).toBe(204);
      expect((await editor.dav.propfind(`${SHARED}/Photos/Trips%20copy/`, '0')).status).toBe(404);
      const trashed = await listFolders(owner.browser, { trashMode: 'true' });
      expect(trashed.map((f) => f.name)).toContain('Trips copy');
      expect((await listFolders(editor.browser, { trashMode: 'true' })).map((f) => f.name)).not.toContain('Trips copy');
    });

    it('cannot delete, move or rename the shared folder itself, nor move or copy across drives', async () => {
      expect((await editor.dav.request('DELETE', `${SHARED}/Photos/`)).status).toBe(403);
      expect((await move(editor, `${SHARED}/Photos/`, `${SHARED}/Pictures/`)).status).toBe(403);
      expect((await move(editor, `${SHARED}/Photos/`, '/dav/Photos/')).status).toBe(403);
      expect((await move(editor, `${SHARED}/Photos/notes.txt`, '/dav/notes.txt')).status).toBe(403);
      await editor.dav.put('/dav/mine.txt', 'my own bytes');
      expect((await move(editor, '/dav/mine.txt', `${SHARED}/Photos/mine.txt`)).status).toBe(403);
      expect((await copy(editor, '/dav/mine.txt', `${SHARED}/Photos/mine.txt`)).status).toBe(403);
      expect((await listFiles(owner.browser, { parent: photos._id })).map((f) => f.filename)).toEqual(['notes.txt']);
      expect((await editor.dav.get('/dav/mine.txt')).text).toBe('my own bytes');
      expect((await owner.dav.propfind('/dav/Photos/', '0')).status).toBe(207);
    });

    it('sees its own quota under the shared folder, never the owner’s', async () => {
      const own = usedBytes((await editor.dav.propfind('/dav/', '0', QUOTA_PROPS)).text);
      const shared = usedBytes((await editor.dav.propfind(`${SHARED}/Photos/`, '0', QUOTA_PROPS)).text);
      expect(shared).toBe(own);
      expect(usedBytes((await owner.dav.propfind('/dav/', '0', QUOTA_PROPS)).text)).not.toBe(own);
    });

    it('reads with PROPFIND, GET and HEAD', async () => {
      expect((await editor.dav.propfind(`${SHARED}/Photos/`, '1')).status).toBe(207);
      expect((await editor.dav.get(`${SHARED}/Photos/notes.txt`)).text).toBe('second notes');
      const head = await editor.dav.request('HEAD', `${SHARED}/Photos/notes.txt`);
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe('12');
    });

    it('loses write access when the role drops to viewer, and everything when the share is revoked', async () => {
      const patched = await owner.browser.patch(`/item-share-service/shares/${editorShare.id}`, { role: 'viewer' });
      expect(patched.statusCode, patched.body).toBe(200);
      expect((await editor.dav.put(`${SHARED}/Photos/late.txt`, 'x')).status).toBe(403);
      expect((await editor.dav.get(`${SHARED}/Photos/notes.txt`)).status).toBe(200);
      expect((await owner.browser.delete(`/item-share-service/shares/${editorShare.id}`)).statusCode).toBe(204);
      expect((await editor.dav.get(`${SHARED}/Photos/notes.txt`)).status).toBe(404);
      expect((await editor.dav.propfind(`${SHARED}/Photos/`, '0')).status).toBe(404);
      expect(hrefs((await editor.dav.propfind('/dav/', '1')).text)).not.toContain('/dav/Shared with me/');
    });
  });

  it("a stranger's every method on a shared path, or on the owner's own path, answers as for a path that does not exist", async () => {
    const patch = '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:a>1</Z:a></D:prop></D:set></D:propertyupdate>';
    const send = (method: string, path: string) => {
      const elsewhere = { headers: { destination: `${h.origin}/dav/taken-${method}.txt`, overwrite: 'F' } };
      if (method === 'PROPFIND') return stranger.dav.propfind(path, '0');
      if (method === 'PUT') return stranger.dav.put(path, 'x');
      if (method === 'PROPPATCH') return stranger.dav.request(method, path, { body: patch });
      if (method === 'LOCK') return stranger.dav.request(method, path, { body: LOCK_BODY() });
      if (method === 'UNLOCK')
        return stranger.dav.request(method, path, { headers: { 'lock-token': '<urn:uuid:00000000-0000-0000-0000-000000000000>' } });
      if (method === 'MOVE' || method === 'COPY') return stranger.dav.request(method, path, elsewhere);
      return stranger.dav.request(method, path);
    };
    const methods = ['PROPFIND', 'GET', 'HEAD', 'PUT', 'MKCOL', 'DELETE', 'MOVE', 'COPY', 'PROPPATCH', 'LOCK', 'UNLOCK'];
    for (const [existing, unknown] of [
      [`${SHARED}/Photos/notes.txt`, `${SHARED}/Nothing/none.txt`],
      [`${SHARED}/Photos/2024/`, `${SHARED}/Nothing/Deeper/`],
      ['/dav/Photos/notes.txt', '/dav/Nothing/none.txt'],
    ] as const) {
      for (const method of methods) {
        const [seen, control] = [await send(method, existing!), await send(method, unknown!)];
        expect(seen.status, `${method} ${existing}`).toBe(control.status);
        expect([404, 409], `${method} ${existing}: ${seen.status}`).toContain(seen.status);
      }
    }
    expect((await owner.dav.get('/dav/Photos/notes.txt')).text).toBe('second notes');
    expect((await owner.dav.propfind('/dav/Photos/2024/', '0')).status).toBe(207);
    expect(hrefs((await stranger.dav.propfind('/dav/', '1')).text)).toEqual(['/dav/']);
  });

  it("a stranger finds nothing of anyone's shares: 404", async () => {
    expect((await stranger.dav.propfind(`${SHARED}/Photos/`, '0')).status).toBe(404);
    expect((await stranger.dav.get(`${SHARED}/Photos/notes.txt`)).status).toBe(404);
    expect((await stranger.dav.get(`${SHARED}/plan.txt`)).status).toBe(404);
    expect((await stranger.dav.put(`${SHARED}/Photos/x.txt`, 'x')).status).toBe(409);
    expect((await stranger.dav.request('DELETE', `${SHARED}/Photos/notes.txt`)).status).toBe(404);
    expect(hrefs((await stranger.dav.propfind(`${SHARED}/`, '1')).text)).toEqual(['/dav/Shared with me/']);
  });

  describe('quota', () => {
    let small: DavHarness;
    beforeAll(async () => {
      small = await startDavApp({ storageQuotaBytes: 5000 });
    });
    afterAll(() => small.close());

    it("an editor's bytes count against the owner's quota and are refused as the owner's own would be", async () => {
      const [sharer, writer] = [await small.account(), await small.account()];
      const folder = await createFolder(sharer.browser, 'Team');
      await share(sharer.browser, 'folder', folder._id, writer.email, 'editor');
      expect((await sharer.dav.put('/dav/filler.bin', Buffer.alloc(4000))).status).toBe(201);
      expect((await writer.dav.put(`${SHARED}/Team/a.bin`, Buffer.alloc(600))).status).toBe(201);
      expect(usedBytes((await sharer.dav.propfind('/dav/', '0', QUOTA_PROPS)).text)).toBe(4600);
      expect(usedBytes((await writer.dav.propfind(`${SHARED}/Team/`, '0', QUOTA_PROPS)).text)).toBe(0);
      const ownOver = await sharer.dav.put('/dav/over.bin', Buffer.alloc(1000));
      const sharedOver = await writer.dav.put(`${SHARED}/Team/b.bin`, Buffer.alloc(1000));
      expect(ownOver.status).toBe(507);
      expect(sharedOver.status).toBe(ownOver.status);
      expect((await listFiles(sharer.browser, { parent: folder._id })).map((f) => f.filename)).toEqual(['a.bin']);
      // The writer's own drive has room for the same bytes.
      expect((await writer.dav.put('/dav/b.bin', Buffer.alloc(1000))).status).toBe(201);
    });
  });

  it.skipIf(!hasRclone && !required)('rclone lists a share and copies into an editor share', async () => {
    const [sharer, writer] = [await h.account(), await h.account()];
    const folder = await createFolder(sharer.browser, 'Drop');
    await upload(sharer.browser, 'readme.txt', 'read me', folder._id);
    await share(sharer.browser, 'folder', folder._id, writer.email, 'editor');
    const work = await mkdtemp(path.join(os.tmpdir(), 'nimbus-dav-shared-'));
    try {
      await writeFile(path.join(work, 'report.txt'), 'quarterly numbers');
      const rclone = await rcloneAs(h.origin, writer, work);
      expect((await rclone('lsf', 'nimbus:')).split('\n')).toContain('Shared with me/');
      expect((await rclone('lsf', 'nimbus:Shared with me/Drop')).split('\n')).toContain('readme.txt');
      await rclone('copy', path.join(work, 'report.txt'), 'nimbus:Shared with me/Drop/reports');
      const stored = (await listFolders(sharer.browser, { parent: folder._id })).find((f) => f.name === 'reports');
      expect(stored).toBeDefined();
      expect((await listFiles(sharer.browser, { parent: stored!._id })).map((f) => f.filename)).toEqual(['report.txt']);
      await rclone('copy', 'nimbus:Shared with me/Drop/reports/report.txt', path.join(work, 'back'));
      expect(await readFile(path.join(work, 'back', 'report.txt'), 'utf8')).toBe('quarterly numbers');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
