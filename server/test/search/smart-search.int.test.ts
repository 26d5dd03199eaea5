import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { IndexRequests } from '../../src/search/index-requests.js';
import type { PeopleMatcher } from '../../src/search/people-match.js';
import { createSearch } from '../../src/search/search-module.js';
import { createBlobStore, createEncryptedStore } from '../../src/storage/create-stores.js';
import type { Config, SmartModelConfig } from '../../src/config.js';
import { clipTextEmbeddings } from '../../src/search/embed/clip-model.js';
import { pictureModelId } from '../../src/search/embed/picture-model.js';
import { quantize } from '../../src/search/embed/quantize.js';
import { promptFor } from '../../src/search/rank/picture-search.js';
import { upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { startStandInHub, type StandInHub } from '../support/stand-in-hub.js';
import { writeTinyClip } from '../support/tiny-clip/tiny-clip.js';
import { closedPort, writeFakeModel } from '../model-store/support.js';
import { heifEnc, skipWithoutHeifEnc } from '../media/heic-files.js';
import { TestClock, semanticSearch } from './support.js';

const run = promisify(execFile);
const TOKEN = 'health-token-0123456789abcdef';
const FIRST = 'tester/tiny-clip';
const SECOND = 'tester/tiny-clip-other';
const BROKEN = 'tester/clip-broken';
const CORRUPTED = 'tester/tiny-clip-corrupted';
const DIMS = 24;

let hub: StandInHub;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'nimbus-smart-search-'));
  await writeTinyClip(path.join(work, 'first'), { seed: 3, dims: DIMS });
  await writeTinyClip(path.join(work, 'second'), { seed: 4, dims: DIMS });
  // Random bytes where the weights should be: the download verifies (the hub's hashes are of
  // these bytes), but the model does not load.
  await writeFakeModel(path.join(work, 'broken'));
  hub = await startStandInHub({
    repos: {
      [FIRST]: path.join(work, 'first'),
      [SECOND]: path.join(work, 'second'),
      [BROKEN]: path.join(work, 'broken'),
      [CORRUPTED]: path.join(work, 'first'),
    },
  });
}, 60_000);

afterAll(async () => {
  await hub?.close();
  await rm(work, { recursive: true, force: true });
});

interface SmartApp extends TestApp {
  clock: TestClock;
  log: string[];
  index(): Promise<void>;
  waitForModel(state: 'downloading' | 'ready' | 'failed'): Promise<void>;
}

function modelConfig(id: string, dir: string, hubUrl = hub.url): SmartModelConfig {
  return { id, revision: 'main', dir, hubUrl };
}

function searchConfig(smartModel: SmartModelConfig | null): Partial<Config> {
  return {
    search: { enabled: true, embeddings: null, smartModel },
    integrity: { scrubIntervalMs: 0, scrubBatchSize: 10, healthToken: TOKEN },
    logLevel: 'warn',
  };
}

/** The server, with its log kept, driven by a clock that moves when told. */
function harness(t: TestApp, clock: TestClock, log: string[]): SmartApp {
  return {
    ...t,
    clock,
    log,
    async index() {
      for (let round = 0; round < 6; round++) {
        clock.advance(70_000);
        if ((await t.app.background.drainJobs()) === 0) break;
      }
    },
    async waitForModel(state) {
      const stateNow = async () =>
        (await t.app.inject({ method: 'GET', url: '/health/details', headers: { authorization: `Bearer ${TOKEN}` } })).json<{
          model: { state: string };
        }>().model.state;
      const until = Date.now() + 20_000;
      let seen = await stateNow();
      while (seen !== state && Date.now() < until) {
        await sleep(50);
        seen = await stateNow();
      }
      expect(seen).toBe(state);
    },
  };
}

function logStream(lines: string[]): PassThrough {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  return stream;
}

async function smartApp(smartModel: SmartModelConfig | null): Promise<SmartApp> {
  const clock = new TestClock();
  const log: string[] = [];
  const t = await createTestApp(searchConfig(smartModel), { clock, logStream: logStream(log) });
  return harness(t, clock, log);
}

async function photo(colour: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 200, channels: 3, background: colour } })
    .composite([
      { input: { create: { width: 80, height: 60, channels: 3, background: { r: 255 - colour.r, g: 255, b: 0 } } }, left: 40, top: 30 },
    ])
    .jpeg()
    .toBuffer();
}

async function shortVideo(): Promise<Buffer> {
  const out = path.join(work, `clip-${Date.now()}.mp4`);
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=128x96:rate=10', '-pix_fmt', 'yuv420p', '-y', out]);
  return readFile(out);
}

const entry = (t: TestApp, itemId: string) =>
  t.app.database.db
    .selectFrom('searchEntry')
    .select(['itemId', 'kind', 'body', 'modelId', 'embedding', 'imageModelId', 'imageEmbedding', 'indexedAt'])
    .where('itemId', '=', itemId)
    .executeTakeFirstOrThrow();

describe('search with the image–text model fetched from the hub', () => {
  let h: SmartApp;
  let alice: TestBrowser;
  let modelsDir: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    modelsDir = await mkdtemp(path.join(work, 'models-'));
    h = await smartApp(modelConfig(FIRST, modelsDir));
    await h.waitForModel('ready');
    alice = new TestBrowser(h.app);
    await alice.signUp();
    ids.photo = (await upload(alice, 'IMG_0001.jpg', await photo({ r: 20, g: 90, b: 200 })))._id;
    ids.video = (await upload(alice, 'VID_0002.mp4', await shortVideo()))._id;
    ids.note = (await upload(alice, 'notes.txt', 'A recipe for lemon cake with poppy seeds.'))._id;
    await h.index();
  }, 120_000);

  afterAll(() => h?.close());

  it('stores an image embedding of the model for photos and videos, none for documents', async () => {
    const id = pictureModelId(modelConfig(FIRST, modelsDir));
    for (const item of [ids.photo, ids.video]) {
      const stored = await entry(h, item!);
      expect(stored.imageModelId).toBe(id);
      expect(stored.imageEmbedding?.length).toBe(DIMS);
    }
    expect(await entry(h, ids.note!)).toMatchObject({ kind: 'document', imageModelId: null, imageEmbedding: null });
  });

  it('ranks a photo by its picture for a query none of whose words is in any file', async () => {
    // The picture's vector is set to the query's own text embedding: with random weights nothing
    // else is meaningful, and this makes the image–text list the only way to the photo.
    const [query] = await clipTextEmbeddings(path.join(modelsDir, ...FIRST.split('/')), [promptFor(['zebra', 'crossing'])]);
    const pictureIs = async (vector: Float32Array) => {
      h.clock.advance(1000);
      await h.app.database.db
        .updateTable('searchEntry')
        .set({ imageEmbedding: quantize(vector), indexedAt: h.clock.now() })
        .where('itemId', '=', ids.photo!)
        .execute();
      const found = await semanticSearch(alice, 'zebra crossing');
      expect(found.status).toBe(200);
      return found.body.files.map((f) => f._id);
    };
    // Pointing away from the query: not found (nothing else finds it either)…
    expect(await pictureIs(query!.map((v) => -v))).not.toContain(ids.photo);
    // …and pointing at it: found, through the picture alone.
    expect(await pictureIs(query!)).toContain(ids.photo);
    // The words still answer as before.
    expect((await semanticSearch(alice, 'lemon cake')).body.files[0]?._id).toBe(ids.note);
  });

  it.skipIf(skipWithoutHeifEnc)(
    'embeds a HEIC from its stored preview, once the thumbnail job made it',
    async () => {
      const heic = (await upload(alice, 'IMG_0005.HEIC', heifEnc([await photo({ r: 240, g: 200, b: 30 })])))._id;
      ids.heic = heic;
      await h.index();
      await h.app.background.schedule();
      await h.index();
      const stored = await entry(h, heic);
      expect(stored).toMatchObject({ kind: 'photo', imageModelId: pictureModelId(modelConfig(FIRST, modelsDir)) });
      expect(stored.imageEmbedding?.length).toBe(DIMS);
    },
    60_000,
  );

  it('embeds the pictures again, and only them, when the model changes', async () => {
    const before = await entry(h, ids.video!);
    await h.app.close();
    // The same database and files, now with another model configured.
    const clock = h.clock;
    const log: string[] = [];
    const app = await buildApp(
      { ...h.config, search: { enabled: true, embeddings: null, smartModel: modelConfig(SECOND, modelsDir) } },
      { clock, logStream: logStream(log) },
    );
    const close = h.close;
    h = {
      ...harness({ ...h, app }, clock, log),
      close: async () => {
        await app.close();
        await close();
      },
    };
    await h.waitForModel('ready');
    await h.app.background.schedule();
    await h.index();

    const after = await entry(h, ids.video!);
    expect(after.imageModelId).toBe(pictureModelId(modelConfig(SECOND, modelsDir)));
    expect(after.imageEmbedding?.length).toBe(DIMS);
    expect(after.imageEmbedding?.equals(before.imageEmbedding!)).toBe(false);
    // The words and their embedding were kept: only the picture was embedded again.
    expect(after).toMatchObject({ body: before.body, modelId: before.modelId });
    expect(after.embedding?.equals(before.embedding!)).toBe(true);
    expect((await entry(h, ids.photo!)).imageModelId).toBe(pictureModelId(modelConfig(SECOND, modelsDir)));
  }, 120_000);
});

describe('while the image–text model downloads', () => {
  it('indexes on the bundled pipeline, then embeds those pictures once the model is ready', async () => {
    hub.throttle(2000);
    const h = await smartApp(modelConfig(FIRST, await mkdtemp(path.join(work, 'models-'))));
    try {
      await h.waitForModel('downloading');
      const alice = new TestBrowser(h.app);
      await alice.signUp();
      const picture = await upload(alice, 'IMG_0006.jpg', await photo({ r: 90, g: 30, b: 160 }));
      await h.app.background.schedule();
      await h.index();
      expect(await entry(h, picture._id)).toMatchObject({ kind: 'photo', imageModelId: null, imageEmbedding: null });

      hub.throttle(null);
      await h.waitForModel('ready');
      // No restart: the backfill kept looking while the model downloaded.
      await h.index();
      const stored = await entry(h, picture._id);
      expect(stored.imageModelId).toBe(pictureModelId(modelConfig(FIRST, '')));
      expect(stored.imageEmbedding?.length).toBe(DIMS);
    } finally {
      hub.throttle(null);
      await h.close();
    }
  }, 120_000);
});

describe('search without a usable image–text model', () => {
  async function answersWithWords(h: SmartApp): Promise<void> {
    const alice = new TestBrowser(h.app);
    await alice.signUp();
    const picture = await upload(alice, 'IMG_0003.jpg', await photo({ r: 200, g: 40, b: 40 }));
    const note = await upload(alice, 'notes.txt', 'Minutes of the rowing club meeting about the new boat.');
    await h.index();
    expect(await entry(h, picture._id)).toMatchObject({ kind: 'photo', imageModelId: null, imageEmbedding: null });
    const found = await semanticSearch(alice, 'rowing club minutes');
    expect(found.body.files.map((f) => f._id)).toEqual([note._id]);
    expect((await semanticSearch(alice, 'giraffe')).body).toEqual({ files: [], folders: [] });
  }

  it('falls back to the bundled pipeline when the model does not load, and says so once', async () => {
    const modelsDir = await mkdtemp(path.join(work, 'models-'));
    const h = await smartApp(modelConfig(BROKEN, modelsDir));
    try {
      await h.waitForModel('ready');
      await answersWithWords(h);
      const second = new TestBrowser(h.app);
      await second.signUp();
      await upload(second, 'IMG_0004.jpg', await photo({ r: 10, g: 200, b: 10 }));
      await h.index();
      expect(h.log.filter((l) => l.includes('does not load'))).toHaveLength(1);
    } finally {
      await h.close();
    }
  }, 120_000);

  it('falls back when the hub serves a corrupt file or cannot be reached', async () => {
    hub.corrupt(CORRUPTED, 'onnx/text_model_quantized.onnx');
    const corrupt = await smartApp(modelConfig(CORRUPTED, await mkdtemp(path.join(work, 'models-'))));
    try {
      await corrupt.waitForModel('failed');
      await answersWithWords(corrupt);
    } finally {
      await corrupt.close();
    }
    const down = await smartApp(modelConfig(FIRST, await mkdtemp(path.join(work, 'models-')), `http://127.0.0.1:${await closedPort()}`));
    try {
      await down.waitForModel('failed');
      await answersWithWords(down);
    } finally {
      await down.close();
    }
  }, 120_000);
});

describe('people in questions', () => {
  let h: SmartApp;
  let alice: { browser: TestBrowser; id: string };
  let bob: { browser: TestBrowser; id: string };
  const files: Record<string, string> = {};
  const asked: string[] = [];
  let search: ReturnType<typeof createSearch>;

  beforeAll(async () => {
    h = await smartApp(null);
    const account = async () => {
      const browser = new TestBrowser(h.app);
      return { browser, id: (await browser.signUp()).id };
    };
    alice = await account();
    bob = await account();
    files.annaHome = (await upload(alice.browser, 'evening.txt', 'Dinner in the kitchen, candles on the table.'))._id;
    files.annaBeach = (await upload(alice.browser, 'holiday.txt', 'A sunny day at the beach: sand, waves and a sandcastle.'))._id;
    files.otherBeach = (await upload(alice.browser, 'trip.txt', 'The beach at low tide: sand, waves and seagulls.'))._id;
    files.bobBeach = (await upload(bob.browser, 'coast.txt', 'Walking on the beach: sand and waves all day.'))._id;
    await h.index();
    // Anna is one of Alice's people, shown in two of her files (newest first); Bob has nobody.
    const people: PeopleMatcher = {
      match(ownerId, terms) {
        asked.push(ownerId);
        if (ownerId !== alice.id || !terms.includes('anna')) return Promise.resolve(null);
        // Followed by ids of files deleted since, enough to pass the cap on a person's files.
        const gone = Array.from({ length: 2500 }, (_, i) => `gone-${i}`);
        return Promise.resolve({ terms: ['anna'], fileIds: [files.annaBeach!, files.annaHome!, ...gone] });
      },
    };
    const { db, dialect } = h.app.database;
    const queue = new JobQueue(db, dialect, h.clock);
    const store = createEncryptedStore(createBlobStore(h.config.storage), h.config.secrets.encryptionKey);
    search = createSearch(h.config.search, {
      db,
      dialect,
      store,
      queue,
      clock: h.clock,
      log: { info: () => {}, warn: () => {}, error: () => {} },
      requests: new IndexRequests(queue, h.clock, true),
      indexThreads: 1,
      people,
    });
  }, 120_000);

  afterAll(async () => {
    await search?.close();
    await h?.close();
  });

  const ids = (found: { files: { id: string }[] }) => found.files.map((f) => f.id);

  it("answers a name alone with the person's files, newest first", async () => {
    expect(ids(await search.service.search(alice.id, 'Anna'))).toEqual([files.annaBeach, files.annaHome]);
    expect(ids(await search.service.search(alice.id, 'photos of anna'))).toEqual([]);
  });

  it("ranks the other words of the question among the person's files only", async () => {
    expect(ids(await search.service.search(alice.id, 'Anna at the beach'))).toEqual([files.annaBeach]);
    // Without the name, both beaches answer.
    expect(ids(await search.service.search(alice.id, 'beach')).sort()).toEqual([files.annaBeach, files.otherBeach].sort());
  });

  it('never matches names in the files others shared, nor in another account', async () => {
    asked.length = 0;
    const [own, shared] = await search.service.searchAs(bob.id, [bob.id, alice.id], 'Anna at the beach');
    expect(asked).toEqual([bob.id]);
    expect(ids(own!)).toEqual([files.bobBeach]);
    // Alice's index answers Bob by the words alone: "anna" is in none of her files.
    expect(ids(shared!).sort()).toEqual([files.annaBeach, files.otherBeach].sort());
    expect(ids(await search.service.search(bob.id, 'Anna'))).toEqual([]);
  });
});
