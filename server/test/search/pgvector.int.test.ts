import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPgvector, PgVectorIndex } from '../../src/search/db/pgvector.js';
import { quantize } from '../../src/search/embed/quantize.js';
import { ImageVectors } from '../../src/search/rank/image-vectors.js';
import { VectorIndex, type VectorFilter } from '../../src/search/rank/vector-index.js';
import { SearchRepository } from '../../src/search/db/search.repository.js';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { upload } from '../helpers/drive.js';

const log = { info: () => {}, warn: () => {}, error: () => {} };
const MODEL = 'clip:tester/tiny@main';
const unit = (values: number[]) => {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (v) => v / norm);
};
const ANY: VectorFilter = { kinds: [], dateRange: null, place: null };

/** Pictures searched in PostgreSQL with pgvector when the server has it, else in memory. */
describe.runIf(testDialect() === 'postgres')('pictures in pgvector', () => {
  let t: TestApp;
  let ownerId: string;
  const files: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const alice = new TestBrowser(t.app);
    ownerId = (await alice.signUp()).id;
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) files.push((await upload(alice, name, `not a picture: ${name}`))._id);
    // Entries as the indexer leaves them, with picture vectors pointing three ways.
    const vectors = [unit([1, 0, 0, 0.1]), unit([0, 1, 0, 0.1]), unit([0.7, 0.7, 0, 0.1])];
    for (const [i, id] of files.entries()) {
      await t.app.database.db
        .insertInto('searchEntry')
        .values({
          itemId: id,
          itemType: 'file',
          ownerId,
          kind: 'photo',
          contentDate: 1000 + i,
          place: null,
          content: '',
          body: '',
          sourceUpdatedAt: 0,
          analysisVersion: 1,
          modelId: null,
          embedding: null,
          imageModelId: MODEL,
          imageEmbedding: quantize(vectors[i]!),
          indexedAt: 1,
        })
        .execute();
    }
  }, 60_000);

  afterAll(() => t?.close());

  it('uses pgvector only where the server offers it, and the in-memory index answers the same otherwise', async () => {
    const db = t.app.database.db;
    const offered = await hasPgvector(db);
    const pg = new PgVectorIndex(db, log);
    expect(await pg.available()).toBe(offered);
    const columns = await sql<{ name: string }>`
      select column_name as name from information_schema.columns where table_name = 'search_entry' and column_name = 'image_vector'`.execute(
      db,
    );
    expect(columns.rows.length).toBe(offered ? 1 : 0);

    const memory = new VectorIndex(new SearchRepository(db, 'postgres'), 'image');
    const images = new ImageVectors(memory, pg);
    const query = unit([1, 0.1, 0, 0.1]);
    const contrast = [unit([0, 0, 1, 0])];
    const hits = await images.search(ownerId, MODEL, query, ANY, 10, contrast);
    expect(hits.map((h) => h.itemId)).toEqual([files[0], files[2], files[1]]);
    const expected = await memory.search(ownerId, MODEL, query, ANY, 10, contrast);
    for (const [i, hit] of hits.entries()) {
      expect(hit.score).toBeCloseTo(expected[i]!.score, 2);
      expect(hit.contrast).toBeCloseTo(expected[i]!.contrast!, 2);
    }
    // Filters and another model's vectors.
    expect(await images.search(ownerId, MODEL, query, { ...ANY, within: new Set([files[1]!]) }, 10)).toMatchObject([{ itemId: files[1] }]);
    expect(await images.search(ownerId, MODEL, query, { ...ANY, kinds: ['video'] }, 10)).toEqual([]);
    expect(await images.search(ownerId, MODEL, query, { ...ANY, dateRange: { from: 1001, to: 1002 } }, 10)).toMatchObject([
      { itemId: files[1] },
    ]);
    expect(await images.search(ownerId, 'clip:other@main', query, ANY, 10)).toEqual([]);
  });
});
