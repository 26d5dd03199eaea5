import type { AdminOverviewDto, AdminUserDto, AdminUserPage, FileVersionListDto, StorageUsageDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type SignedUp } from '../admin/support.js';
import { DavClient, startDavApp, type DavHarness } from '../dav/dav-support.js';
import { upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import type { TestBrowser } from '../helpers/test-browser.js';

const QUOTA_PROPS = '<D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>';

describe('versions count toward the quota everywhere it is shown', () => {
  let h: DavHarness;
  let admin: SignedUp;
  let user: SignedUp;
  let dav: DavClient;

  beforeAll(async () => {
    h = await startDavApp({ storageQuotaBytes: 100_000 });
    admin = await accountOf(h, 'admin');
    user = await accountOf(h, 'user');
    const created = await user.browser.post('/user-service/app-passwords', { name: 'laptop' });
    dav = DavClient.basic(h.origin, user.email, created.json<{ password: string }>().password);
  });
  afterAll(() => h.close());

  const usage = async (b: TestBrowser) => (await b.get('/user-service/storage')).json<StorageUsageDto>();
  const replace = async (b: TestBrowser, fileId: string, content: string) => {
    const { body, contentType } = await multipartBody([{ name: 'file', filename: 'x', data: content }]);
    const answer = await b.request('POST', `/file-service/upload-version/${fileId}`, body, { 'content-type': contentType });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const adminRow = async (id: string) => (await admin.browser.get(`/admin-service/users/${id}`)).json<AdminUserDto>();
  const overview = async () => (await admin.browser.get('/admin-service/overview')).json<AdminOverviewDto>();
  const davUsed = async () => {
    const answer = await dav.propfind('/dav/', '0', QUOTA_PROPS);
    return {
      used: Number(/<D:quota-used-bytes>(\d+)</.exec(answer.text)?.[1]),
      available: Number(/<D:quota-available-bytes>(\d+)</.exec(answer.text)?.[1]),
    };
  };

  it('Settings’ storage bar, the admin’s account row and list, the overview and WebDAV all count the kept versions', async () => {
    const before = await overview();
    expect(await usage(user.browser)).toEqual({ usedBytes: 0, quotaBytes: 100_000, bytes: { files: 0, trash: 0, versions: 0 } });

    const file = await upload(user.browser, 'doc.txt', 'a'.repeat(1000));
    await replace(user.browser, file._id, 'b'.repeat(300));
    await replace(user.browser, file._id, 'c'.repeat(200));
    const trashed = await upload(user.browser, 'old.txt', 'd'.repeat(50));
    expect((await user.browser.patch('/file-service/trash', { id: trashed._id })).statusCode).toBeLessThan(300);

    // 200 current, 1000 + 300 kept, 50 in the trash.
    expect(await usage(user.browser)).toEqual({ usedBytes: 1550, quotaBytes: 100_000, bytes: { files: 200, trash: 50, versions: 1300 } });
    expect((await adminRow(user.id)).usedBytes).toBe(1550);
    const page = (await admin.browser.get(`/admin-service/users?search=${encodeURIComponent(user.email)}`)).json<AdminUserPage>();
    expect(page.users.find((u) => u.id === user.id)?.usedBytes).toBe(1550);
    const after = await overview();
    expect(after.bytes.versions - before.bytes.versions).toBe(1300);
    expect(after.bytes.files - before.bytes.files).toBe(200);
    expect(after.bytes.trash - before.bytes.trash).toBe(50);
    // Versions are used bytes, yet room for new content: WebDAV clients are told so.
    expect(await davUsed()).toEqual({ used: 1550, available: 100_000 - 1550 + 1300 });
  });

  it('sorting the admin’s list by used bytes counts versions', async () => {
    // A second account with more current bytes than the first, but fewer in all.
    const other = await accountOf(h, 'user');
    await upload(other.browser, 'plain.bin', 'e'.repeat(1200));
    const page = (await admin.browser.get('/admin-service/users?sort=usedBytes&order=desc&limit=50')).json<AdminUserPage>();
    const order = page.users.map((u) => u.id).filter((id) => id === user.id || id === other.id);
    expect(order).toEqual([user.id, other.id]);
  });

  it('trashing a file keeps its versions counted; deleting a version or the file for good gives the bytes back', async () => {
    const file = await upload(user.browser, 'cycle.txt', 'f'.repeat(400));
    await replace(user.browser, file._id, 'g'.repeat(100));
    const start = await usage(user.browser);
    expect((await user.browser.patch('/file-service/trash', { id: file._id })).statusCode).toBeLessThan(300);
    const inTrash = await usage(user.browser);
    expect(inTrash.usedBytes).toBe(start.usedBytes);
    expect(inTrash.bytes.versions).toBe(start.bytes.versions);
    expect((await user.browser.patch('/file-service/restore', { id: file._id })).statusCode).toBeLessThan(300);

    const versions = (await user.browser.get(`/file-service/versions/${file._id}`)).json<FileVersionListDto>().versions;
    expect(versions.map((v) => v.size)).toEqual([400]);
    expect((await user.browser.delete(`/file-service/versions/${file._id}/${versions[0]!.id}`)).statusCode).toBe(200);
    const withoutVersion = await usage(user.browser);
    expect(withoutVersion.usedBytes).toBe(start.usedBytes - 400);
    expect(withoutVersion.bytes.versions).toBe(start.bytes.versions - 400);

    await replace(user.browser, file._id, 'h'.repeat(100));
    await replace(user.browser, file._id, 'i'.repeat(100));
    expect((await usage(user.browser)).bytes.versions).toBe(start.bytes.versions - 400 + 200);
    expect((await user.browser.patch('/file-service/trash', { id: file._id })).statusCode).toBeLessThan(300);
    expect((await user.browser.delete('/file-service/remove', { id: file._id })).statusCode).toBeLessThan(300);
    const gone = await usage(user.browser);
    // The file (100) and all its versions went; the deleted one (400) was gone already.
    expect(gone.bytes.versions).toBe(start.bytes.versions - 400);
    expect(gone.usedBytes).toBe(start.usedBytes - 400 - 100);
  });
});
