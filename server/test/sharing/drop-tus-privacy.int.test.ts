import type { ShareLinkDto } from '@nimbus/common';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

const TUS = { 'tus-resumable': '1.0.0' };
const piece = (offset: number) => ({ ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' });
const meta = (filename: string) => `filename ${Buffer.from(filename).toString('base64')}`;

/** What tus through a drop link tells the visitor, and what the link's owner may do with a visitor's upload. */
describe('tus through a drop link keeps the two sides apart', () => {
  let t: TestApp;
  let owner: TestBrowser;
  let link: ShareLinkDto;
  let inboxId: string;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    owner = new TestBrowser(t.app);
    await owner.signUp();
    inboxId = (await createFolder(owner, 'Inbox'))._id;
    link = (await owner.post('/share-service/links', { itemType: 'folder', itemId: inboxId, kind: 'drop' })).json<ShareLinkDto>();
  });
  afterAll(() => t.close());

  async function visitorUpload(length: number) {
    const visitor = new TestBrowser(t.app);
    const created = await visitor.request('POST', `/share-service/public/${link.token}/tus`, undefined, {
      ...TUS,
      'upload-length': String(length),
      'upload-metadata': meta(`guest-${randomBytes(3).toString('hex')}.bin`),
    });
    expect(created.statusCode).toBe(201);
    const location = created.headers.location as string;
    return { visitor, location, id: location.split('/').pop()! };
  }

  it("never tells the visitor the id of the owner's new file", async () => {
    const data = randomBytes(1000);
    const { visitor, location } = await visitorUpload(data.length);
    const last = await visitor.request('PATCH', location, data, piece(0));
    expect(last.statusCode).toBe(204);
    expect(last.headers['upload-offset']).toBe(String(data.length));
    expect(last.headers['nimbus-file-id']).toBeUndefined();
    const head = await visitor.request('HEAD', location, undefined, TUS);
    expect(head.statusCode).toBe(200);
    expect(head.headers['nimbus-file-id']).toBeUndefined();

    // Created with its whole body in one request: the same.
    const whole = await visitor.request('POST', `/share-service/public/${link.token}/tus`, data, {
      ...TUS,
      'upload-length': String(data.length),
      'upload-metadata': meta('in-one.bin'),
      'content-type': 'application/offset+octet-stream',
    });
    expect(whole.statusCode).toBe(201);
    expect(whole.headers['upload-offset']).toBe(String(data.length));
    expect(whole.headers['nimbus-file-id']).toBeUndefined();
    // The file did arrive.
    expect((await listFiles(owner, { parent: inboxId })).map((f) => f.filename)).toContain('in-one.bin');
  });

  it('still tells the owner the id of the file their own upload became', async () => {
    const data = randomBytes(100);
    const created = await owner.request('POST', '/file-service/tus', data, {
      ...TUS,
      'upload-length': String(data.length),
      'upload-metadata': meta('own.bin'),
      'content-type': 'application/offset+octet-stream',
    });
    expect(created.statusCode).toBe(201);
    const fileId = created.headers['nimbus-file-id'] as string;
    expect(fileId).toBeTruthy();
    expect((await owner.get(`/file-service/info/${fileId}`)).statusCode).toBe(200);
  });

  it("refuses the owner's own tus endpoint a visitor's pending upload, as any upload not theirs", async () => {
    const data = randomBytes(2000);
    const { visitor, location, id } = await visitorUpload(data.length);
    const ownerUrl = `/file-service/tus/${id}`;

    // At the upload's offset (the piece would be taken at once) and at another one.
    for (const offset of [0, 100]) {
      const write = await owner.request('PATCH', ownerUrl, data.subarray(offset), piece(offset));
      expect(write.statusCode, write.body).toBe(404);
      expect(write.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await owner.request('HEAD', ownerUrl, undefined, TUS)).statusCode).toBe(404);
    expect((await owner.request('DELETE', ownerUrl, undefined, TUS)).statusCode).toBe(404);

    // The visitor's upload is untouched and still theirs to finish.
    const head = await visitor.request('HEAD', location, undefined, TUS);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
    expect((await visitor.request('PATCH', location, data, piece(0))).statusCode).toBe(204);
  });
});
