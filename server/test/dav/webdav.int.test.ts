import type { FileDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles, listFolders, upload } from '../helpers/drive.js';
import { DavClient, LOCK_BODY, hrefs, startDavApp, type DavAccount, type DavHarness } from './dav-support.js';

describe('WebDAV', () => {
  let h: DavHarness;
  beforeAll(async () => {
    h = await startDavApp();
  });
  afterAll(() => h.close());

  describe('authentication', () => {
    it('asks for Basic credentials and takes only app passwords', async () => {
      const me = await h.account();
      const anonymous = await new DavClient(h.origin, null).propfind('/dav/', '0');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Nimbus"/);

      const accountPassword = await DavClient.basic(h.origin, me.email, me.password).propfind('/dav/', '0');
      expect(accountPassword.status).toBe(401);
      expect((await DavClient.basic(h.origin, me.email.toUpperCase(), me.appPassword).propfind('/dav/', '0')).status).toBe(207);
      expect((await me.dav.propfind('/dav/', '0')).status).toBe(207);
      expect((await new DavClient(h.origin, 'Bearer nope').propfind('/dav/', '0')).status).toBe(401);
      expect((await new DavClient(h.origin, 'Basic !!!').propfind('/dav/', '0')).status).toBe(401);
    });

    it('revoking an app password shuts it out at once; logout-all does not', async () => {
      const me = await h.account();
      expect((await me.browser.post('/user-service/logout-all')).statusCode).toBe(200);
      expect((await me.dav.propfind('/dav/', '0')).status).toBe(207);
      // The browser's session ended; it signs in again to manage its app passwords.
      const login = await me.browser.post('/user-service/login', { email: me.email, password: me.password });
      expect(login.statusCode).toBe(200);
      const [entry] = (await me.browser.get('/user-service/app-passwords')).json<{ id: string; lastUsedAt: string | null }[]>();
      expect(entry!.lastUsedAt).not.toBeNull();
      expect((await me.browser.delete(`/user-service/app-passwords/${entry!.id}`)).statusCode).toBe(204);
      expect((await me.dav.propfind('/dav/', '0')).status).toBe(401);
    });

    it('counts failures toward the login throttling', async () => {
      const me = await h.account();
      const wrong = DavClient.basic(h.origin, me.email, 'not-the-password');
      let last = 0;
      for (let i = 0; i < 11; i++) last = (await wrong.propfind('/dav/', '0')).status;
      expect(last).toBe(429);
      // Locked: even the right app password waits, from this address.
      expect((await me.dav.propfind('/dav/', '0')).status).toBe(429);
    });

    it('refuses cross-site requests a browser was made to send', async () => {
      const me = await h.account();
      const response = await me.dav.request('PROPFIND', '/dav/', { headers: { depth: '0', 'sec-fetch-site': 'cross-site' } });
      expect(response.status).toBe(403);
    });
  });

  describe('methods', () => {
    let me: DavAccount;
    beforeAll(async () => {
      me = await h.account();
    });

    it('OPTIONS announces class 1 and 2', async () => {
      const response = await new DavClient(h.origin, null).request('OPTIONS', '/dav/');
      expect(response.status).toBe(200);
      expect(response.headers.get('dav')).toBe('1, 2');
      expect(response.headers.get('allow')).toContain('PROPFIND');
    });

    it('MKCOL, PUT, GET with Range and ETag, HEAD', async () => {
      expect((await me.dav.request('MKCOL', '/dav/docs/')).status).toBe(201);
      expect((await me.dav.request('MKCOL', '/dav/docs/')).status).toBe(405);
      expect((await me.dav.request('MKCOL', '/dav/missing/child/')).status).toBe(409);
      expect((await me.dav.request('MKCOL', '/dav/withbody/', { body: '<x/>', headers: { 'content-type': 'text/xml' } })).status).toBe(415);

      const put = await me.dav.put('/dav/docs/hello.txt', 'Hello, WebDAV!');
      expect(put.status).toBe(201);
      const etag = put.headers.get('etag')!;
      const got = await me.dav.get('/dav/docs/hello.txt');
      expect(got.text).toBe('Hello, WebDAV!');
      expect(got.headers.get('etag')).toBe(etag);
      expect((await me.dav.get('/dav/docs/hello.txt', { range: 'bytes=7-12' })).text).toBe('WebDAV');
      expect((await me.dav.get('/dav/docs/hello.txt', { 'if-none-match': etag })).status).toBe(304);
      const head = await me.dav.request('HEAD', '/dav/docs/hello.txt');
      expect(head.headers.get('content-length')).toBe('14');
      expect((await me.dav.get('/dav/docs/nothing.txt')).status).toBe(404);
      expect((await me.dav.put('/dav/nowhere/x.txt', 'x')).status).toBe(409);
      expect((await me.dav.put('/dav/docs/', 'x')).status).toBe(405);

      const overwrite = await me.dav.put('/dav/docs/hello.txt', 'Changed');
      expect(overwrite.status).toBe(204);
      expect(overwrite.headers.get('etag')).not.toBe(etag);
      expect((await me.dav.get('/dav/docs/hello.txt')).text).toBe('Changed');
      expect((await me.dav.put('/dav/docs/hello.txt', 'again', { 'if-match': etag })).status).toBe(412);
      expect((await me.dav.put('/dav/docs/hello.txt', 'again', { 'if-none-match': '*' })).status).toBe(412);
    });

    it('a file put over WebDAV is a Nimbus file, and a web upload is visible over WebDAV', async () => {
      await me.dav.request('MKCOL', '/dav/shared-model/');
      expect((await me.dav.put('/dav/shared-model/from-dav.txt', 'dav bytes')).status).toBe(201);
      const [folder] = (await listFolders(me.browser)).filter((f) => f.name === 'shared-model');
      const files = await listFiles(me.browser, { parent: folder!._id });
      expect(files.map((f) => [f.filename, f.length])).toEqual([['from-dav.txt', 9]]);
      const download = await me.browser.get(`/file-service/download/${files[0]!._id}`);
      expect(download.body).toBe('dav bytes');

      const web = await upload(me.browser, 'from-web.txt', 'web bytes!', folder!._id);
      const listing = await me.dav.propfind('/dav/shared-model/', '1');
      expect(listing.status).toBe(207);
      expect(hrefs(listing.text)).toEqual(['/dav/shared-model/', '/dav/shared-model/from-dav.txt', '/dav/shared-model/from-web.txt']);
      expect(listing.text).toContain('<D:getcontentlength>10</D:getcontentlength>');
      expect(listing.text).toContain(new Date(web.uploadDate).toUTCString());

      // Overwriting keeps the file (its id, links and place) and replaces its bytes.
      expect((await me.dav.put('/dav/shared-model/from-web.txt', 'new content')).status).toBe(204);
      const after = await listFiles(me.browser, { parent: folder!._id });
      expect(after.find((f) => f.filename === 'from-web.txt')!._id).toBe(web._id);
      expect((await me.browser.get(`/file-service/download/${web._id}`)).body).toBe('new content');
    });

    it('PROPFIND: depth 0 and 1, infinity refused, named and unknown properties, quota', async () => {
      await me.dav.request('MKCOL', '/dav/pf/');
      await me.dav.put('/dav/pf/a.txt', 'aaa');
      const zero = await me.dav.propfind('/dav/pf/', '0');
      expect(hrefs(zero.text)).toEqual(['/dav/pf/']);
      expect(zero.text).toContain('<D:resourcetype><D:collection/></D:resourcetype>');
      const infinity = await me.dav.propfind('/dav/pf/', 'infinity');
      expect(infinity.status).toBe(403);
      expect(infinity.text).toContain('<D:propfind-finite-depth/>');

      const named = await me.dav.propfind(
        '/dav/pf/a.txt',
        '0',
        '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:z"><D:prop><D:getcontentlength/><Z:nope/><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>',
      );
      expect(named.text).toMatch(
        /<D:propstat><D:prop><D:getcontentlength>3<\/D:getcontentlength><D:quota-used-bytes>\d+<\/D:quota-used-bytes><\/D:prop><D:status>HTTP\/1.1 200 OK/,
      );
      expect(named.text).toMatch(/<x:nope xmlns:x="urn:z"\/><D:quota-available-bytes\/><\/D:prop><D:status>HTTP\/1.1 404/);
      const propname = await me.dav.propfind('/dav/pf/a.txt', '0', '<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>');
      expect(propname.text).toContain('<D:getetag/>');
      expect((await me.dav.propfind('/dav/pf/', '2')).status).toBe(400);
      expect((await me.dav.propfind('/dav/pf/nothing', '0')).status).toBe(404);
    });

    it('PROPPATCH stores dead properties, refuses live ones atomically, and keeps them across MOVE and COPY', async () => {
      await me.dav.put('/dav/props.txt', 'p');
      const set = await me.dav.request('PROPPATCH', '/dav/props.txt', {
        body: '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:color>blue &amp; green</Z:color><Z:tree><Z:leaf a="1">x</Z:leaf></Z:tree></D:prop></D:set></D:propertyupdate>',
      });
      expect(set.status).toBe(207);
      expect(set.text).toContain('HTTP/1.1 200 OK');
      const refused = await me.dav.request('PROPPATCH', '/dav/props.txt', {
        body: '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:other>1</Z:other><D:getetag>x</D:getetag></D:prop></D:set></D:propertyupdate>',
      });
      expect(refused.text).toMatch(/<x:other xmlns:x="urn:z"\/><\/D:prop><D:status>HTTP\/1.1 424/);
      expect(refused.text).toMatch(/<D:getetag\/><\/D:prop><D:status>HTTP\/1.1 403/);

      expect((await me.dav.request('MOVE', '/dav/props.txt', { headers: { destination: `${h.origin}/dav/moved.txt` } })).status).toBe(201);
      expect((await me.dav.request('COPY', '/dav/moved.txt', { headers: { destination: '/dav/copied.txt' } })).status).toBe(201);
      for (const path of ['/dav/moved.txt', '/dav/copied.txt']) {
        const all = await me.dav.propfind(path, '0');
        expect(all.text).toContain('<x:color xmlns:x="urn:z">blue &amp; green</x:color>');
        expect(all.text).toContain('<leaf xmlns="urn:z" a="1">x</leaf>');
        expect(all.text).not.toContain('other');
      }
      const removed = await me.dav.request('PROPPATCH', '/dav/copied.txt', {
        body: '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:remove><D:prop><Z:color/></D:prop></D:remove></D:propertyupdate>',
      });
      expect(removed.status).toBe(207);
      expect((await me.dav.propfind('/dav/copied.txt', '0')).text).not.toContain('blue');
      expect((await me.dav.propfind('/dav/moved.txt', '0')).text).toContain('blue');
    });

    it('COPY and MOVE with Overwrite and Depth', async () => {
      await me.dav.request('MKCOL', '/dav/cm/');
      await me.dav.request('MKCOL', '/dav/cm/src/');
      await me.dav.put('/dav/cm/src/one.txt', '1');
      await me.dav.put('/dav/cm/other.txt', 'other');
      const to = (path: string) => ({ destination: `${h.origin}${path}` });

      expect((await me.dav.request('COPY', '/dav/cm/src/', { headers: to('/dav/cm/deep/') })).status).toBe(201);
      expect((await me.dav.get('/dav/cm/deep/one.txt')).text).toBe('1');
      expect((await me.dav.request('COPY', '/dav/cm/src/', { headers: { ...to('/dav/cm/shallow/'), depth: '0' } })).status).toBe(201);
      expect(hrefs((await me.dav.propfind('/dav/cm/shallow/', '1')).text)).toEqual(['/dav/cm/shallow/']);
      expect((await me.dav.request('COPY', '/dav/cm/src/', { headers: { ...to('/dav/cm/x/'), depth: '1' } })).status).toBe(400);

      expect(
        (await me.dav.request('COPY', '/dav/cm/other.txt', { headers: { ...to('/dav/cm/src/one.txt'), overwrite: 'F' } })).status,
      ).toBe(412);
      expect(
        (await me.dav.request('COPY', '/dav/cm/other.txt', { headers: { ...to('/dav/cm/src/one.txt'), overwrite: 'T' } })).status,
      ).toBe(204);
      expect((await me.dav.get('/dav/cm/src/one.txt')).text).toBe('other');

      expect((await me.dav.request('MOVE', '/dav/cm/src/', { headers: to('/dav/cm/renamed/') })).status).toBe(201);
      expect((await me.dav.get('/dav/cm/renamed/one.txt')).text).toBe('other');
      expect((await me.dav.get('/dav/cm/src/one.txt')).status).toBe(404);
      expect((await me.dav.request('MOVE', '/dav/cm/renamed/', { headers: to('/dav/cm/renamed/inside/') })).status).toBe(403);
      expect((await me.dav.request('MOVE', '/dav/cm/renamed/', { headers: { ...to('/dav/cm/renamed2/'), depth: '0' } })).status).toBe(400);
      expect((await me.dav.request('MOVE', '/dav/cm/other.txt', { headers: to('/dav/cm/nowhere/x.txt') })).status).toBe(409);
      expect((await me.dav.request('MOVE', '/dav/cm/other.txt', {})).status).toBe(400);
      expect((await me.dav.request('MOVE', '/dav/cm/other.txt', { headers: to('/elsewhere/x.txt') })).status).toBe(400);
    });

    it('DELETE goes to the Nimbus trash, restorable in the web app; trashed items are invisible', async () => {
      await me.dav.request('MKCOL', '/dav/bin/');
      await me.dav.put('/dav/bin/keep.txt', 'keep me');
      expect((await me.dav.request('DELETE', '/dav/bin/')).status).toBe(204);
      expect((await me.dav.propfind('/dav/bin/', '0')).status).toBe(404);
      expect(hrefs((await me.dav.propfind('/dav/', '1')).text)).not.toContain('/dav/bin/');
      expect((await me.dav.request('DELETE', '/dav/bin/')).status).toBe(404);
      expect((await me.dav.request('DELETE', '/dav/')).status).toBe(403);

      const trashed = await listFolders(me.browser, { trashMode: 'true' });
      const bin = trashed.find((f) => f.name === 'bin')!;
      expect(bin).toBeDefined();
      expect((await me.browser.patch('/folder-service/restore', { id: bin._id })).statusCode).toBe(200);
      expect((await me.dav.get('/dav/bin/keep.txt')).text).toBe('keep me');
    });

    it('LOCK and UNLOCK: a locked file needs its token, shared locks coexist, unmapped URLs become empty files', async () => {
      await me.dav.put('/dav/locked.txt', 'v1');
      const lock = await me.dav.request('LOCK', '/dav/locked.txt', { body: LOCK_BODY(), headers: { timeout: 'Second-600' } });
      expect(lock.status).toBe(200);
      const token = lock.headers.get('lock-token')!.slice(1, -1);
      expect(lock.text).toContain('<D:timeout>Second-600</D:timeout>');
      expect((await me.dav.propfind('/dav/locked.txt', '0')).text).toContain(token);

      expect((await me.dav.put('/dav/locked.txt', 'v2')).status).toBe(423);
      expect((await me.dav.request('DELETE', '/dav/locked.txt')).status).toBe(423);
      expect((await me.dav.request('LOCK', '/dav/locked.txt', { body: LOCK_BODY('shared') })).status).toBe(423);
      expect((await me.dav.put('/dav/locked.txt', 'v2', { if: '(<opaquelocktoken:bogus>)' })).status).toBe(412);
      expect((await me.dav.put('/dav/locked.txt', 'v2', { if: `(<${token}>)` })).status).toBe(204);

      const refreshed = await me.dav.request('LOCK', '/dav/locked.txt', { headers: { if: `(<${token}>)`, timeout: 'Second-60' } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.text).toContain('Second-60');

      // Another account cannot use the token: its paths are its own drive.
      const other = await h.account();
      await other.dav.put('/dav/locked.txt', 'mine');
      expect((await other.dav.request('UNLOCK', '/dav/locked.txt', { headers: { 'lock-token': `<${token}>` } })).status).toBe(409);
      expect((await other.dav.put('/dav/locked.txt', 'still mine', { if: `(<${token}>)` })).status).toBe(412);

      expect((await me.dav.request('UNLOCK', '/dav/locked.txt', { headers: { 'lock-token': '<opaquelocktoken:nope>' } })).status).toBe(409);
      expect((await me.dav.request('UNLOCK', '/dav/locked.txt')).status).toBe(400);
      expect((await me.dav.request('UNLOCK', '/dav/locked.txt', { headers: { 'lock-token': `<${token}>` } })).status).toBe(204);
      expect((await me.dav.put('/dav/locked.txt', 'v3')).status).toBe(204);

      const s1 = await me.dav.request('LOCK', '/dav/locked.txt', { body: LOCK_BODY('shared', 'a') });
      const s2 = await me.dav.request('LOCK', '/dav/locked.txt', { body: LOCK_BODY('shared', 'b') });
      expect([s1.status, s2.status]).toEqual([200, 200]);
      expect((await me.dav.request('LOCK', '/dav/locked.txt', { body: LOCK_BODY('exclusive') })).status).toBe(423);

      await me.dav.request('MKCOL', '/dav/lockdir/');
      const deep = await me.dav.request('LOCK', '/dav/lockdir/', { body: LOCK_BODY() });
      const deepToken = deep.headers.get('lock-token')!;
      expect((await me.dav.put('/dav/lockdir/new.txt', 'x')).status).toBe(423);
      expect((await me.dav.put('/dav/lockdir/new.txt', 'x', { if: `(${deepToken})` })).status).toBe(201);

      const unmapped = await me.dav.request('LOCK', '/dav/unmapped.txt', { body: LOCK_BODY(), headers: { depth: '0' } });
      expect(unmapped.status).toBe(201);
      expect((await me.dav.get('/dav/unmapped.txt')).bytes.length).toBe(0);
      expect(
        (
          await me.dav.request('LOCK', '/dav/x.txt', {
            body: '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope></D:lockinfo>',
          })
        ).status,
      ).toBe(400);
    });

    it('a locked collection protects its members from DELETE and MOVE without the token', async () => {
      await me.dav.request('MKCOL', '/dav/guarded/');
      await me.dav.put('/dav/guarded/f.txt', 'f');
      const lock = await me.dav.request('LOCK', '/dav/guarded/f.txt', { body: LOCK_BODY() });
      expect(lock.status).toBe(200);
      expect((await me.dav.request('DELETE', '/dav/guarded/')).status).toBe(423);
      expect((await me.dav.request('MOVE', '/dav/guarded/', { headers: { destination: '/dav/guarded2/' } })).status).toBe(423);
      const token = lock.headers.get('lock-token')!;
      // The token is for the member, so it is tagged with the member's URL (RFC 4918 §10.4.6).
      expect((await me.dav.request('DELETE', '/dav/guarded/', { headers: { if: `(${token})` } })).status).toBe(412);
      expect(
        (await me.dav.request('DELETE', '/dav/guarded/', { headers: { if: `<${h.origin}/dav/guarded/f.txt> (${token})` } })).status,
      ).toBe(204);
    });
  });

  describe('client habits', () => {
    it('Windows Explorer: LOCK, an empty PUT, PROPPATCH of Win32 times, the real PUT with the token, UNLOCK', async () => {
      const me = await h.account();
      const ua = { 'user-agent': 'Microsoft-WebDAV-MiniRedir/10.0.19045' };
      const lock = await me.dav.request('LOCK', '/dav/report.docx', {
        headers: { ...ua, timeout: 'Second-3600', depth: '0' },
        body: '<?xml version="1.0" encoding="utf-8" ?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>DESKTOP\\user</D:href></D:owner></D:lockinfo>',
      });
      expect(lock.status).toBe(201);
      const token = lock.headers.get('lock-token')!;
      const ifHeader = { ...ua, if: `(${token})` };
      expect((await me.dav.put('/dav/report.docx', '', { ...ifHeader, 'content-length': '0' })).status).toBe(204);
      const times = await me.dav.request('PROPPATCH', '/dav/report.docx', {
        headers: ifHeader,
        body:
          '<?xml version="1.0" encoding="utf-8" ?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:set><D:prop>' +
          '<Z:Win32CreationTime>Tue, 24 Nov 2026 10:00:00 GMT</Z:Win32CreationTime><Z:Win32LastModifiedTime>Tue, 24 Nov 2026 10:00:00 GMT</Z:Win32LastModifiedTime>' +
          '<Z:Win32FileAttributes>00000020</Z:Win32FileAttributes></D:prop></D:set></D:propertyupdate>',
      });
      expect(times.status).toBe(207);
      expect(times.text).not.toContain('403');
      expect((await me.dav.put('/dav/report.docx', 'the document', ifHeader)).status).toBe(204);
      expect((await me.dav.request('UNLOCK', '/dav/report.docx', { headers: { ...ua, 'lock-token': token } })).status).toBe(204);
      expect((await me.dav.get('/dav/report.docx')).text).toBe('the document');
      expect((await me.dav.propfind('/dav/report.docx', '0')).text).toContain('Win32FileAttributes');
      const files = await listFiles(me.browser);
      expect(files.map((f) => [f.filename, f.length])).toEqual([['report.docx', 12]]);
    });

    it('macOS Finder: AppleDouble companions and .DS_Store are kept like other files', async () => {
      const me = await h.account();
      expect((await me.dav.put('/dav/photo.jpg', 'jpeg bytes')).status).toBe(201);
      expect((await me.dav.put('/dav/._photo.jpg', Buffer.from([0, 5, 22, 7]))).status).toBe(201);
      expect((await me.dav.put('/dav/.DS_Store', 'finder')).status).toBe(201);
      expect(hrefs((await me.dav.propfind('/dav/', '1')).text)).toEqual(['/dav/', '/dav/._photo.jpg', '/dav/.DS_Store', '/dav/photo.jpg']);
    });
  });

  describe('one model', () => {
    it('tells same-named items apart with a stable suffix', async () => {
      const me = await h.account();
      const folder = await createFolder(me.browser, 'dups');
      const first = await upload(me.browser, 'report.pdf', 'first', folder._id);
      const second = await upload(me.browser, 'report.pdf', 'second', folder._id);
      await createFolder(me.browser, 'report.pdf', folder._id);
      const names = hrefs((await me.dav.propfind('/dav/dups/', '1')).text);
      const suffix = (f: FileDto) => `/dav/dups/report (~${f._id.slice(0, 8)}).pdf`;
      expect(names).toEqual(['/dav/dups/', '/dav/dups/report.pdf/', suffix(first), suffix(second)]);
      expect((await me.dav.get(suffix(first).split('/').map(encodeURIComponent).join('/'))).text).toBe('first');
      expect((await me.dav.get(suffix(second).split('/').map(encodeURIComponent).join('/'))).text).toBe('second');
    });

    it('lists a big folder completely, in pages, with duplicates across page boundaries', async () => {
      const me = await h.account();
      const big = await createFolder(me.browser, 'big');
      const names = Array.from({ length: 1100 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);
      for (let i = 0; i < names.length; i += 50) await Promise.all(names.slice(i, i + 50).map((n) => me.dav.put(`/dav/big/${n}`, n)));
      // Same names again from the web app, where the listing turns a page (500 files a page).
      for (const n of ['f0499.txt', 'f0500.txt', 'f0501.txt']) await upload(me.browser, n, `again ${n}`, big._id);
      const listed = hrefs((await me.dav.propfind('/dav/big/', '1')).text).slice(1);
      expect(listed).toHaveLength(1103);
      expect(new Set(listed).size).toBe(1103);
      const suffixed = listed.filter((n) => n.includes('(~'));
      expect(suffixed.map((n) => n.replace(/ \(~[0-9a-z]{8}\)/, ''))).toEqual([
        '/dav/big/f0499.txt',
        '/dav/big/f0500.txt',
        '/dav/big/f0501.txt',
      ]);
      expect((await me.dav.get('/dav/big/f0500.txt')).text).toBe('f0500.txt');
    });
  });

  describe('bad input changes nothing', () => {
    let me: DavAccount;
    beforeAll(async () => {
      me = await h.account();
      await me.dav.request('MKCOL', '/dav/safe/');
      await me.dav.put('/dav/safe/file.txt', 'safe');
    });

    it.each([
      ['/dav/safe/../file.txt'],
      ['/dav/safe/%2e%2e/file.txt'],
      ['/dav/safe/a%2fb.txt'],
      ['/dav/safe/a%5cb.txt'],
      ['/dav/safe/nul%00.txt'],
      ['/dav/safe/bell%07.txt'],
      ['/dav/safe/%E2%80%AEgnp.exe'],
      [`/dav/safe/${'n'.repeat(256)}.txt`],
      ['/dav/safe/%zz.txt'],
    ])('%s → 400', async (path) => {
      const put = await me.dav.put(path, 'x');
      expect(put.status).toBe(400);
      expect((await me.dav.request('MKCOL', path)).status).toBe(400);
      expect((await me.dav.request('MOVE', '/dav/safe/file.txt', { headers: { destination: path } })).status).toBe(400);
      expect(hrefs((await me.dav.propfind('/dav/safe/', '1')).text)).toEqual(['/dav/safe/', '/dav/safe/file.txt']);
    });

    it('refuses malformed XML, entity declarations and oversized bodies without expanding anything', async () => {
      const bomb =
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>' +
        '<D:propfind xmlns:D="DAV:"><D:prop><D:x>&lol2;</D:x></D:prop></D:propfind>';
      const external =
        '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
        '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:x xmlns:Z="urn:z">&xxe;</Z:x></D:prop></D:set></D:propertyupdate>';
      expect((await me.dav.propfind('/dav/safe/', '0', bomb)).status).toBe(400);
      expect((await me.dav.request('PROPPATCH', '/dav/safe/file.txt', { body: external })).status).toBe(400);
      expect((await me.dav.propfind('/dav/safe/', '0', '<D:propfind xmlns:D="DAV:"><D:prop>')).status).toBe(400);
      expect((await me.dav.propfind('/dav/safe/', '0', '<propfind xmlns:bad="">')).status).toBe(400);
      expect((await me.dav.request('PROPPATCH', '/dav/safe/file.txt', { body: '<D:nope xmlns:D="DAV:"/>' })).status).toBe(400);
      const deep = '<a>'.repeat(1000) + '</a>'.repeat(1000);
      expect((await me.dav.propfind('/dav/safe/', '0', deep)).status).toBe(400);
      const huge = `<D:propfind xmlns:D="DAV:"><D:prop>${'<D:getetag/>'.repeat(120_000)}</D:prop></D:propfind>`;
      expect((await me.dav.propfind('/dav/safe/', '0', huge)).status).toBe(413);
      expect((await me.dav.propfind('/dav/safe/file.txt', '0')).text).not.toContain('passwd');
      expect((await me.dav.put('/dav/safe/file.txt', 'x', { if: '(<unterminated' })).status).toBe(400);
    });

    it("never reaches another account's items", async () => {
      const other = await h.account();
      expect((await other.dav.get('/dav/safe/file.txt')).status).toBe(404);
      expect((await other.dav.request('DELETE', '/dav/safe/file.txt')).status).toBe(404);
      expect((await other.dav.request('COPY', '/dav/safe/file.txt', { headers: { destination: '/dav/stolen.txt' } })).status).toBe(404);
      expect((await me.dav.get('/dav/safe/file.txt')).text).toBe('safe');
    });
  });

  describe('limits', () => {
    let small: DavHarness;
    beforeAll(async () => {
      small = await startDavApp({ maxUploadBytes: 1000, storageQuotaBytes: 5000 });
    });
    afterAll(() => small.close());

    it('MAX_UPLOAD_BYTES answers 413 and a full quota 507, leaving nothing behind', async () => {
      const me = await small.account();
      expect((await me.dav.put('/dav/big.bin', Buffer.alloc(2000))).status).toBe(413);
      for (let i = 0; i < 5; i++) expect((await me.dav.put(`/dav/part${i}.bin`, Buffer.alloc(1000))).status).toBe(201);
      expect((await me.dav.put('/dav/over.bin', Buffer.alloc(10))).status).toBe(507);
      expect(hrefs((await me.dav.propfind('/dav/', '1')).text)).toHaveLength(6);
      const quota = await me.dav.propfind(
        '/dav/',
        '0',
        '<D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>',
      );
      expect(quota.text).toContain('<D:quota-used-bytes>5000</D:quota-used-bytes><D:quota-available-bytes>0</D:quota-available-bytes>');
    });
  });
});
