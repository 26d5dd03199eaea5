import type { ShareLinkDto } from '@nimbus/common';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_DROP_UPLOADS, MAX_OPEN_UPLOADS } from '../../src/services/uploads/tus-upload.service.js';
import { createFolder, listFiles } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';

const BASE = '/file-service/tus';
const QUOTA = 1_000_000;
const filename = (name: string) => `filename ${Buffer.from(name).toString('base64')}`;

interface Answer {
  status: number;
  code: string | undefined;
  location: string | null;
}

/**
 * Creating a resumable upload reserves its declared length against the quota, and its place
 * among the open uploads, in one step: of many creations at once, only those that fit succeed.
 */
describe('tus creation reserves quota and open-upload places atomically', () => {
  let h: DavHarness;
  let open: DavHarness;

  beforeAll(async () => {
    [h, open] = await Promise.all([startDavApp({ storageQuotaBytes: QUOTA }), startDavApp()]);
  });
  afterAll(() => Promise.all([h?.close(), open?.close()]));

  const tusHeaders = (me: DavAccount) => ({
    uuid: me.browser.browserId,
    cookie: `access-token=${me.browser.cookies.get('access-token')!.value}`,
    'tus-resumable': '1.0.0',
  });
  const answer = async (response: Response): Promise<Answer> => {
    const text = await response.text();
    const code = text ? (JSON.parse(text) as { code?: string }).code : undefined;
    return { status: response.status, code, location: response.headers.get('location') };
  };
  const create = async (harness: DavHarness, me: DavAccount, length: number, name = 'r.bin'): Promise<Answer> =>
    answer(
      await fetch(`${harness.origin}${BASE}`, {
        method: 'POST',
        headers: { ...tusHeaders(me), 'upload-length': String(length), 'upload-metadata': filename(name) },
      }),
    );
  const sendMultipart = async (me: DavAccount, name: string, bytes: number) => {
    const { body, contentType } = await multipartBody([
      { name: 'parent', value: '/' },
      { name: 'file', filename: name, data: Buffer.alloc(bytes, 1) },
    ]);
    return me.browser.request('POST', '/file-service/upload', body, { 'content-type': contentType });
  };
  // Connections opened beforehand, so a burst reaches the server at once rather than as each connects.
  const warmUp = (harness: DavHarness) =>
    Promise.all(Array.from({ length: 40 }, () => fetch(`${harness.origin}${BASE}`, { method: 'OPTIONS' }).then((r) => r.arrayBuffer())));
  const statuses = (answers: Answer[]) => {
    const counts: Record<string, number> = {};
    for (const a of answers) counts[`${a.status} ${a.code ?? ''}`.trim()] = (counts[`${a.status} ${a.code ?? ''}`.trim()] ?? 0) + 1;
    return counts;
  };

  it('of 20 creations of 900,000 bytes at once on a 1,000,000-byte quota, exactly one succeeds', async () => {
    const me = await h.account();
    await warmUp(h);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(h, me, 900_000, `q${i}.bin`)));
    expect(statuses(answers)).toEqual({ '201': 1, '413 QUOTA_EXCEEDED': 19 });

    // Another account's quota is its own.
    const other = await h.account();
    expect((await create(h, other, 900_000)).status).toBe(201);
  });

  it('multipart uploads and WebDAV PUT count the bytes reserved by unfinished uploads; the upload itself still completes', async () => {
    const me = await h.account();
    const reserved = await create(h, me, 900_000, 'big.bin');
    expect(reserved.status).toBe(201);

    const multipart = await sendMultipart(me, 'small.bin', 200_000);
    expect(multipart.statusCode).toBe(413);
    expect(multipart.json()).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect((await me.dav.put('/dav/small.bin', Buffer.alloc(200_000, 2))).status).toBe(507);
    // What is left beside the reservation still fits.
    expect((await sendMultipart(me, 'fits.bin', 50_000)).statusCode).toBe(201);
    expect((await me.dav.put('/dav/fits-too.bin', Buffer.alloc(50_000, 3))).status).toBe(201);
    // Replacing a file's content counts the reservation too.
    expect((await me.dav.put('/dav/fits-too.bin', Buffer.alloc(150_000, 4))).status).toBe(507);
    // WebDAV clients are told of the reservation in the space used and left.
    const quota = await me.dav.propfind(
      '/dav/',
      '0',
      '<D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>',
    );
    expect(quota.text).toContain(`<D:quota-used-bytes>${QUOTA}</D:quota-used-bytes><D:quota-available-bytes>0</D:quota-available-bytes>`);

    // Its own reservation does not count twice against the upload when its last byte arrives.
    const finished = await fetch(`${h.origin}${reserved.location!}`, {
      method: 'PATCH',
      headers: { ...tusHeaders(me), 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(900_000),
    });
    expect(finished.status).toBe(204);
    expect((await listFiles(me.browser)).map((f) => f.filename).sort()).toEqual(['big.bin', 'fits-too.bin', 'fits.bin']);

    // Cancelling an upload gives its reservation back.
    const second = await h.account();
    const held = await create(h, second, 900_000);
    expect((await sendMultipart(second, 'no.bin', 200_000)).statusCode).toBe(413);
    expect((await fetch(`${h.origin}${held.location!}`, { method: 'DELETE', headers: tusHeaders(second) })).status).toBe(204);
    expect((await sendMultipart(second, 'yes.bin', 200_000)).statusCode).toBe(201);
  });

  it(`creations at once never hold more than ${MAX_OPEN_UPLOADS} open uploads`, async () => {
    const me = await open.account();
    await warmUp(open);
    const first = await Promise.all(Array.from({ length: MAX_OPEN_UPLOADS - 10 }, () => create(open, me, 10)));
    expect(first.every((a) => a.status === 201)).toBe(true);
    const burst = await Promise.all(Array.from({ length: 30 }, () => create(open, me, 10)));
    expect(statuses(burst)).toEqual({ '201': 10, '409 CONFLICT': 20 });
  });

  it(`creations at once through one drop link never hold more than ${MAX_OPEN_DROP_UPLOADS} open uploads`, async () => {
    const owner = await open.account();
    const folder = await createFolder(owner.browser, 'Inbox');
    const made = await owner.browser.post('/share-service/links', { itemType: 'folder', itemId: folder._id, kind: 'drop' });
    expect(made.statusCode).toBe(201);
    const { token } = made.json<ShareLinkDto>();
    const visitor = { uuid: randomUUID(), 'tus-resumable': '1.0.0' };
    await warmUp(open);
    const burst = await Promise.all(
      Array.from({ length: 25 }, async (_, i) =>
        answer(
          await fetch(`${open.origin}/share-service/public/${token}/tus`, {
            method: 'POST',
            headers: { ...visitor, 'upload-length': '10', 'upload-metadata': filename(`d${i}.bin`) },
          }),
        ),
      ),
    );
    expect(statuses(burst)).toEqual({ '201': MAX_OPEN_DROP_UPLOADS, '409 CONFLICT': 25 - MAX_OPEN_DROP_UPLOADS });
  });
});
