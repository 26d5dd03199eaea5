import type { CreatedAppPasswordDto, FileDto, FileVersionListDto } from '@nimbus/common';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchRepository } from '../../src/search/db/search.repository.js';
import { DavClient } from '../dav/dav-support.js';
import { upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { testDialect } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createSearchApp, semanticSearch, type SearchHarness } from '../search/support.js';

const OLD = 'The zeppelin drifted above the marmalade factory while the orchestra rehearsed.';
const NEW = 'Fishing trawlers returned to the harbour at dawn with a catch of mackerel.';

describe('search indexes the current content of a file only', () => {
  let h: SearchHarness;
  let alice: TestBrowser;
  let dav: DavClient;
  let aliceId: string;

  beforeAll(async () => {
    h = await createSearchApp();
    alice = new TestBrowser(h.app);
    const { email, id } = await alice.signUp();
    aliceId = id;
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    const created = await alice.post('/user-service/app-passwords', { name: 'sync' });
    dav = DavClient.basic(origin, email, created.json<CreatedAppPasswordDto>().password);
  });
  afterAll(() => h.close());

  const found = async (query: string) => (await semanticSearch(alice, query)).body.files.map((f) => f.filename);
  /** Whether any of Alice's entries holds the word: the word index, under the search's meaning-based half. */
  const indexed = (word: string) => new SearchRepository(h.app.database.db, testDialect()).hasTerm(aliceId, word);

  async function replace(file: FileDto, text: string): Promise<void> {
    const { body, contentType } = await multipartBody([{ name: 'file', filename: 'new.txt', data: Buffer.from(text) }]);
    const answer = await alice.request('POST', `/file-service/upload-version/${file._id}`, body, { 'content-type': contentType });
    expect(answer.statusCode, answer.body).toBe(200);
  }

  it('finds a file replaced by "Upload new version" by its new words, no longer by words only in the old', async () => {
    const file = await upload(alice, 'journal.txt', OLD);
    await h.index();
    expect(await found('zeppelin marmalade')).toContain('journal.txt');

    await replace(file, NEW);
    await h.index();
    expect((await found('trawlers mackerel'))[0]).toBe('journal.txt');
    expect(await indexed('trawlers')).toBe(true);
    expect(await indexed('zeppelin')).toBe(false);
    expect(await indexed('marmalade')).toBe(false);
    expect(await found('zeppelin marmalade')).not.toContain('journal.txt');
    // Its version still holds the old words: the version is kept, not indexed.
    const versions = (await alice.get(`/file-service/versions/${file._id}`)).json<FileVersionListDto>().versions;
    expect(versions).toHaveLength(1);
    expect((await alice.get(`/file-service/versions/${file._id}/${versions[0]!.id}/download`)).body).toBe(OLD);

    // Restoring the old content makes its words the ones found again.
    expect((await alice.post(`/file-service/versions/${file._id}/${versions[0]!.id}/restore`)).statusCode).toBe(200);
    await h.index();
    expect((await found('zeppelin marmalade'))[0]).toBe('journal.txt');
    expect(await indexed('zeppelin')).toBe(true);
    expect(await indexed('trawlers')).toBe(false);
  });

  it('the same for a file saved over through WebDAV', async () => {
    expect((await dav.put('/dav/log.txt', OLD.replace('zeppelin', 'airship'))).status).toBe(201);
    await h.index();
    expect(await found('airship marmalade')).toContain('log.txt');

    expect((await dav.put('/dav/log.txt', NEW.replace('trawlers', 'schooners'))).status).toBe(204);
    // Another file still holds the old words: it, not the replaced one, is what they find first.
    await upload(alice, 'decoy.txt', 'An airship over a marmalade works.');
    await h.index();
    expect((await found('schooners mackerel'))[0]).toBe('log.txt');
    expect(await indexed('schooners')).toBe(true);
    expect(await indexed('airship')).toBe(true);
    expect((await found('airship marmalade'))[0]).toBe('decoy.txt');
    const entry = await new SearchRepository(h.app.database.db, testDialect()).find(
      (await h.app.database.db.selectFrom('file').select('id').where('filename', '=', 'log.txt').executeTakeFirstOrThrow()).id,
    );
    expect(entry?.content).toBe(NEW.replace('trawlers', 'schooners'));
    expect(entry?.body).not.toMatch(/airship|marmalade/);
  });
});
