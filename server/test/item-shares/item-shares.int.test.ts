import type { FileDto, FolderDto, ItemShareDto, SharedWithMeDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles, listFolders, upload } from '../helpers/drive.js';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { share } from './helpers.js';

/** Sharing with another account: making, changing and ending shares, and their bad inputs. */
describe('item shares: the owner side', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let owner: TestBrowser;
  let friend: TestBrowser;
  let stranger: TestBrowser;
  let ownerEmail: string;
  let friendEmail: string;
  let folder: FolderDto;
  let file: FileDto;

  beforeAll(async () => {
    smtp = new SmtpReceiver();
    const smtpUrl = await smtp.start();
    t = await createTestApp({ mail: { smtpUrl, from: 'Nimbus <nimbus@example.com>' }, search: { enabled: false, embeddings: null } });
    owner = new TestBrowser(t.app);
    friend = new TestBrowser(t.app);
    stranger = new TestBrowser(t.app);
    ownerEmail = (await owner.signUp()).email;
    friendEmail = (await friend.signUp()).email;
    await stranger.signUp();
    folder = await createFolder(owner, 'Holidays');
    file = await upload(owner, 'notes.txt', 'hello', folder._id);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop().catch(() => undefined);
  });

  it('shares a folder, tells the recipient by e-mail, lists it, changes the role and ends it', async () => {
    const sent = smtp.messages.length;
    const created = await owner.post('/item-share-service/shares', {
      itemType: 'folder',
      itemId: folder._id,
      email: friendEmail.toUpperCase(),
      role: 'viewer',
    });
    expect(created.statusCode).toBe(201);
    const dto = created.json<ItemShareDto>();
    expect(dto).toMatchObject({ itemType: 'folder', itemId: folder._id, role: 'viewer', recipient: { email: friendEmail } });
    const mail = await smtp.next(friendEmail, sent);
    expect(mail.text).toContain(`${t.config.http.appUrl}/shared-with-me`);
    expect(mail.text).toContain('Holidays');

    // Sharing again with the same account changes its role: 200, one share.
    const again = await owner.post('/item-share-service/shares', {
      itemType: 'folder',
      itemId: folder._id,
      email: friendEmail,
      role: 'editor',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json<ItemShareDto>()).toMatchObject({ id: dto.id, role: 'editor' });
    const listed = await owner.get(`/item-share-service/shares?itemType=folder&itemId=${folder._id}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json<ItemShareDto[]>()).toEqual([expect.objectContaining({ id: dto.id, role: 'editor' })]);

    const patched = await owner.patch(`/item-share-service/shares/${dto.id}`, { role: 'viewer' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<ItemShareDto>().role).toBe('viewer');

    const mine = (await friend.get('/item-share-service/shared-with-me')).json<SharedWithMeDto[]>();
    expect(mine).toEqual([
      expect.objectContaining({
        shareId: dto.id,
        role: 'viewer',
        itemType: 'folder',
        owner: expect.objectContaining({ email: ownerEmail }),
      }),
    ]);
    expect(mine[0]!.folder).toMatchObject({
      _id: folder._id,
      name: 'Holidays',
      parent: '/',
      shared: { rootId: folder._id, role: 'viewer' },
    });

    const activity = (await owner.get('/user-service/activity')).json<{ events: { type: string }[] }>().events.map((e) => e.type);
    expect(activity).toEqual(expect.arrayContaining(['item-shared', 'item-share-changed']));

    expect((await owner.delete(`/item-share-service/shares/${dto.id}`)).statusCode).toBe(204);
    expect((await friend.get('/item-share-service/shared-with-me')).json()).toEqual([]);
    expect((await friend.get(`/folder-service/info/${folder._id}`)).statusCode).toBe(404);
    const after = (await owner.get('/user-service/activity')).json<{ events: { type: string }[] }>().events.map((e) => e.type);
    expect(after).toContain('item-share-removed');
  });

  it('refuses bad inputs', async () => {
    const post = (body: unknown) => owner.post('/item-share-service/shares', body);
    const base = { itemType: 'file', itemId: file._id, email: friendEmail, role: 'viewer' };
    const unknown = await post({ ...base, email: 'nobody@example.com' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'RECIPIENT_NOT_FOUND', error: 'No account uses this e-mail' });
    // A disabled account is not one to share with.
    const { db } = t.app.database;
    const strangerEmail = (await stranger.get('/user-service/user')).json<{ email: string }>().email;
    await db.updateTable('account').set({ disabledAt: Date.now() }).where('email', '=', strangerEmail).execute();
    expect((await post({ ...base, email: strangerEmail })).json()).toMatchObject({ code: 'RECIPIENT_NOT_FOUND' });
    await db.updateTable('account').set({ disabledAt: null }).where('email', '=', strangerEmail).execute();
    expect((await post({ ...base, email: ownerEmail })).json()).toMatchObject({ code: 'SHARE_WITH_SELF' });
    expect((await post({ ...base, email: ownerEmail })).statusCode).toBe(400);
    expect((await post({ ...base, role: 'admin' })).statusCode).toBe(400);
    expect((await post({ ...base, itemType: 'drive' })).statusCode).toBe(400);
    expect((await post({ ...base, email: `${'a'.repeat(400)}@example.com` })).statusCode).toBe(400);
    expect((await post({ ...base, itemId: 'x'.repeat(65) })).statusCode).toBe(400);
    expect((await post({ ...base, itemId: '' })).statusCode).toBe(400);
    expect((await post({ ...base, email: 42 })).statusCode).toBe(400);
    expect((await post('not json')).statusCode).toBe(400);
    // Another account's item, or the folder id given as a file: not found, as any foreign id.
    const theirs = await upload(stranger, 'theirs.txt', 'x');
    const foreign = await post({ ...base, itemId: theirs._id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await post({ ...base, itemId: folder._id })).json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await post({ ...base, itemType: 'folder', itemId: 'nope' })).json()).toMatchObject({ code: 'FOLDER_NOT_FOUND' });

    // Trashed items cannot be shared.
    const trashed = await upload(owner, 'old.txt', 'x');
    await owner.patch('/file-service/trash', { id: trashed._id });
    expect((await post({ ...base, itemId: trashed._id })).statusCode).toBe(404);

    // Listing, changing and ending: the owner's only.
    expect((await stranger.get(`/item-share-service/shares?itemType=file&itemId=${file._id}`)).statusCode).toBe(404);
    expect((await owner.get(`/item-share-service/shares?itemType=file`)).statusCode).toBe(400);
    const made = await share(owner, 'file', file._id, friendEmail, 'viewer');
    for (const browser of [stranger, friend]) {
      const patched = await browser.patch(`/item-share-service/shares/${made.id}`, { role: 'editor' });
      expect(patched.statusCode).toBe(404);
      expect(patched.json()).toMatchObject({ code: 'SHARE_NOT_FOUND' });
      expect((await browser.delete(`/item-share-service/shares/${made.id}`)).statusCode).toBe(404);
    }
    expect((await owner.patch(`/item-share-service/shares/${made.id}`, { role: 'owner' })).statusCode).toBe(400);
    expect((await owner.patch(`/item-share-service/shares/${made.id}`, { role: 'viewer', extra: 1 })).statusCode).toBe(400);
    expect((await owner.patch(`/item-share-service/shares/${'x'.repeat(100)}`, { role: 'viewer' })).statusCode).toBe(400);
    expect((await owner.delete('/item-share-service/shares/unknown')).statusCode).toBe(404);
    // Leaving: the recipient's only.
    expect((await stranger.delete(`/item-share-service/shared-with-me/${made.id}`)).statusCode).toBe(404);
    expect((await owner.delete(`/item-share-service/shared-with-me/${made.id}`)).statusCode).toBe(404);
    expect((await friend.delete(`/item-share-service/shared-with-me/${made.id}`)).statusCode).toBe(204);
    expect((await friend.get(`/file-service/info/${file._id}`)).statusCode).toBe(404);
    expect((await owner.get(`/item-share-service/shares?itemType=file&itemId=${file._id}`)).json()).toEqual([]);
  });

  it('leaves out shares of trashed items and of disabled owners, and forgets shares of items deleted for good', async () => {
    const doc = await upload(owner, 'doc.txt', 'x');
    await share(owner, 'file', doc._id, friendEmail, 'viewer');
    const names = async () =>
      (await friend.get('/item-share-service/shared-with-me')).json<SharedWithMeDto[]>().map((s) => s.file?.filename);
    expect(await names()).toContain('doc.txt');
    await owner.patch('/file-service/trash', { id: doc._id });
    expect(await names()).not.toContain('doc.txt');
    expect((await friend.get(`/file-service/info/${doc._id}`)).statusCode).toBe(404);
    await owner.patch('/file-service/restore', { id: doc._id });
    expect(await names()).toContain('doc.txt');
    await owner.patch('/file-service/trash', { id: doc._id });
    await owner.delete('/file-service/remove', { id: doc._id });
    expect((await owner.get(`/item-share-service/shares?itemType=file&itemId=${doc._id}`)).statusCode).toBe(404);
    expect(await names()).not.toContain('doc.txt');

    const other = await upload(owner, 'other.txt', 'x');
    await share(owner, 'file', other._id, friendEmail, 'viewer');
    const { db } = t.app.database;
    await db.updateTable('account').set({ disabledAt: Date.now() }).where('email', '=', ownerEmail).execute();
    expect(await names()).not.toContain('other.txt');
    expect((await friend.get(`/file-service/info/${other._id}`)).statusCode).toBe(404);
    await db.updateTable('account').set({ disabledAt: null }).where('email', '=', ownerEmail).execute();
    expect(await names()).toContain('other.txt');
  });

  it('refuses more shares of one item than the limit', async () => {
    const crowded = await upload(owner, 'crowded.txt', 'x');
    const { db } = t.app.database;
    const ownerId = (await owner.get('/user-service/user')).json<{ _id: string }>()._id;
    // The unique index is (item, recipient): each filler share goes to an account of its own.
    for (let i = 0; i < 100; i++) {
      const recipientId = `filler-account-${i}`;
      await db
        .insertInto('account')
        .values({
          id: recipientId,
          email: `${recipientId}@example.com`,
          emailKey: `${recipientId}@example.com`,
          passwordHash: 'x',
          emailVerified: 0,
          verifyEmailSentAt: null,
          resetEmailSentAt: null,
          createdAt: i,
          updatedAt: i,
          role: 'user',
          disabledAt: null,
          deletedAt: null,
          quotaBytes: null,
          lastActiveAt: null,
        })
        .execute();
      const row = { id: `filler${i}`, ownerId, itemType: 'file' as const, itemId: crowded._id, recipientId, role: 'viewer' as const };
      await db
        .insertInto('itemShare')
        .values({ ...row, createdAt: i, updatedAt: i })
        .execute();
    }
    const refused = await owner.post('/item-share-service/shares', {
      itemType: 'file',
      itemId: crowded._id,
      email: friendEmail,
      role: 'viewer',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'TOO_MANY_SHARES' });
  });

  it('a share that fails to mail still stands', async () => {
    await smtp.stop();
    const lonely = await upload(owner, 'lonely.txt', 'x');
    const made = await owner.post('/item-share-service/shares', {
      itemType: 'file',
      itemId: lonely._id,
      email: friendEmail,
      role: 'viewer',
    });
    expect(made.statusCode).toBe(201);
    expect((await friend.get(`/file-service/info/${lonely._id}`)).statusCode).toBe(200);
  });

  it('nested shares: the widest one decides, so the inner shared folder is not locked and moves cross it', async () => {
    const outer = await createFolder(owner, 'Outer');
    const inner = await createFolder(owner, 'Inner', outer._id);
    const inside = await upload(owner, 'inside.txt', 'x', inner._id);
    await share(owner, 'folder', inner._id, friendEmail, 'editor');
    // Through the inner share alone, its root is locked.
    expect((await friend.patch('/folder-service/rename', { id: inner._id, title: 'Renamed' })).json()).toMatchObject({
      code: 'SHARE_ROOT_LOCKED',
    });
    await share(owner, 'folder', outer._id, friendEmail, 'editor');
    expect((await friend.patch('/folder-service/rename', { id: inner._id, title: 'Renamed' })).statusCode).toBe(200);
    expect((await friend.patch('/file-service/move', { id: inside._id, parentID: outer._id })).statusCode).toBe(200);
    expect((await friend.get(`/folder-service/info/${inner._id}`)).json<FolderDto>().shared).toMatchObject({ rootId: outer._id });
  });

  it("the owner's own lists carry no shared field", async () => {
    for (const item of [...(await listFiles(owner, { parent: folder._id })), ...(await listFolders(owner))])
      expect(item).not.toHaveProperty('shared');
  });
});
