import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelStore, createModelStore, type ModelStoreOptions } from '../../src/model-store/model-store.js';
import type { ModelManifest } from '../../src/model-store/model-files.js';
import { startStandInHub, type StandInHub } from '../support/stand-in-hub.js';
import { writeTinyClip } from '../support/tiny-clip/tiny-clip.js';
import { FETCHED, REPO, closedPort, modelConfig, recordingLog, sameBytes, tempDir, writeFakeModel } from './support.js';

const FAST: ModelStoreOptions = { retryDelaysMs: [50], lockStaleMs: 2000, pollMs: 20, hub: { timeoutMs: 3000, stallMs: 3000 } };

describe('the model store', () => {
  let repoDir: string;
  let modelsDir: string;
  let files: Record<string, Buffer>;
  let hub: StandInHub;
  const stores: ModelStore[] = [];

  const storeOf = (over: Partial<ModelStoreOptions> = {}, hubUrl = hub.url, id = REPO, log = recordingLog()) => {
    const store = new ModelStore(modelConfig(modelsDir, hubUrl, id), log, { ...FAST, ...over });
    stores.push(store);
    return { store, log };
  };
  const downloads = () => hub.requests.filter((r) => !r.includes('/api/models/'));
  const modelFolder = () => path.join(modelsDir, ...REPO.split('/'));
  const leftovers = async () => (await readdir(modelsDir)).filter((name) => name.startsWith('.'));

  beforeEach(async () => {
    repoDir = await tempDir('hub-repo');
    modelsDir = await tempDir('models');
    files = await writeFakeModel(repoDir);
    hub = await startStandInHub({ repos: { [REPO]: repoDir } });
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await hub.close();
    await rm(repoDir, { recursive: true, force: true });
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('downloads the files a CLIP model needs, verifies them, writes the manifest last and logs the progress', async () => {
    const { store, log } = storeOf();
    expect(store.status()).toMatchObject({ model: REPO, state: 'missing' });
    await store.ensure();

    const total = FETCHED.reduce((sum, f) => sum + files[f]!.length, 0);
    expect(store.status()).toEqual({ model: REPO, state: 'ready', bytesDone: total, bytesTotal: total, error: null, dir: modelFolder() });
    expect(store.readyDir()).toBe(modelFolder());
    for (const name of FETCHED) expect(await sameBytes(path.join(modelFolder(), name), files[name]!)).toBe(true);
    expect(existsSync(path.join(modelFolder(), 'onnx/vision_model.onnx'))).toBe(false);
    expect(downloads().some((r) => r.includes('README') || r.includes('vision_model.onnx'))).toBe(false);
    // LFS files went through the CDN redirect, the others straight from resolve.
    expect(downloads()).toContain(`GET /cdn/${REPO}/onnx/vision_model_quantized.onnx`);
    expect(downloads()).toContain(`GET /${REPO}/resolve/main/config.json`);

    const manifest = JSON.parse(await readFile(path.join(modelFolder(), 'nimbus-model.json'), 'utf8')) as ModelManifest;
    expect(manifest).toMatchObject({ repo: REPO, revision: 'main' });
    expect(manifest.files.map((f) => f.path)).toEqual(FETCHED);
    for (const f of manifest.files) {
      expect(f.size).toBe(files[f.path]!.length);
      expect(f.sha256).toBe(createHash('sha256').update(files[f.path]!).digest('hex'));
    }
    expect(await leftovers()).toEqual([]);
    expect(log.lines[0]).toMatch(/^info: AI model tester\/clip-stand-in: downloading \d\.\d MB$/);
    expect(log.lines.filter((l) => / \d0 % \(.* MB, .* MB\/s\)$/.test(l)).length).toBeGreaterThanOrEqual(5);
    expect(log.lines.at(-1)).toMatch(/ready, \d\.\d MB verified in .* s \(.* MB\/s\)$/);
  });

  it('starts from the disk without asking the hub once the model is there', async () => {
    await storeOf().store.ensure();
    const url = hub.url;
    await hub.close();
    const before = hub.requests.length;

    const { store, log } = storeOf({}, url);
    await store.ensure();
    expect(store.status().state).toBe('ready');
    expect(hub.requests.length).toBe(before);
    expect(log.lines).toEqual([]);
  });

  it('refuses a file whose hash does not match: failed, no manifest, nothing left behind, logged once', async () => {
    hub.corrupt(REPO, 'onnx/text_model_quantized.onnx');
    const { store, log } = storeOf({ retryDelaysMs: [60_000] });
    await store.ensure();

    expect(store.status().state).toBe('failed');
    expect(store.status().error).toMatch(
      /^onnx\/text_model_quantized\.onnx does not match its sha256 \(expected [0-9a-f]{64}, got [0-9a-f]{64}\)$/,
    );
    expect(store.readyDir()).toBeNull();
    expect(existsSync(modelFolder())).toBe(false);
    expect(await leftovers()).toEqual([]);
    expect(log.lines.filter((l) => l.startsWith('warn:'))).toEqual([`warn: AI search uses the bundled model: ${store.status().error}`]);
  });

  it('refuses a small file that does not match its git blob id', async () => {
    hub.corrupt(REPO, 'preprocessor_config.json');
    const { store } = storeOf({ retryDelaysMs: [60_000] });
    await store.ensure();
    expect(store.status().error).toMatch(/^preprocessor_config\.json does not match its git blob id/);
  });

  it('fails with a clear reason when the disk is full, and removes what it wrote', async () => {
    // A partial file that is /dev/full: every write to it fails with ENOSPC, as on a full disk.
    const partial = path.join(modelsDir, `.partial-${REPO.replace('/', '--')}@main`);
    await mkdir(partial, { recursive: true });
    await symlink('/dev/full', path.join(partial, 'config.json'));
    const { store, log } = storeOf({ retryDelaysMs: [60_000] });
    await store.ensure();
    expect(store.status()).toMatchObject({ state: 'failed', error: `the disk of ${modelsDir} is full (ENOSPC)` });
    expect(await leftovers()).toEqual([]);
    expect(existsSync(modelFolder())).toBe(false);
    expect(log.lines.filter((l) => l.startsWith('warn:'))).toEqual([
      `warn: AI search uses the bundled model: the disk of ${modelsDir} is full (ENOSPC)`,
    ]);
  });

  it('fails fast when the hub cannot be reached, and says so once however often it retries', async () => {
    const down = `127.0.0.1:${await closedPort()}`;
    const { store, log } = storeOf({ retryDelaysMs: [30] }, `http://${down}`);
    const started = performance.now();
    await store.ensure();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(store.status()).toMatchObject({ state: 'failed', error: `cannot reach ${down}: ECONNREFUSED` });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(store.status().state).toBe('failed');
    expect(log.lines).toEqual([`warn: AI search uses the bundled model: cannot reach ${down}: ECONNREFUSED`]);
  });

  it('tries again later and succeeds once the hub answers', async () => {
    hub.failNext(503, 2);
    const { store, log } = storeOf({ retryDelaysMs: [40, 80] });
    await store.ensure();
    expect(store.status()).toMatchObject({
      state: 'failed',
      error: `127.0.0.1:${new URL(hub.url).port} answered HTTP 503 for ${REPO}@main`,
    });
    await expect.poll(() => store.status().state, { timeout: 5000 }).toBe('ready');
    expect(hub.requests.filter((r) => r.includes('/api/models/')).length).toBe(3);
    expect(log.lines.filter((l) => l.startsWith('warn:')).length).toBe(1);
  });

  it('says which model the hub does not have, and which file a repository lacks', async () => {
    const unknown = storeOf({ retryDelaysMs: [60_000] }, hub.url, 'tester/no-such-model').store;
    await unknown.ensure();
    expect(unknown.status().error).toMatch(/has no tester\/no-such-model@main \(HTTP 404\): check SMART_SEARCH_MODEL and MODELS_URL$/);

    await rm(path.join(repoDir, 'onnx/text_model_quantized.onnx'));
    const { store } = storeOf({ retryDelaysMs: [60_000] });
    await store.ensure();
    expect(store.status().error).toBe(`${REPO}@main on the hub has no onnx/text_model_quantized.onnx`);
    expect(await leftovers()).toEqual([]);
  });

  it('resumes a broken-off download with a Range request', async () => {
    hub.cutNext('onnx/vision_model_quantized.onnx', 150_000);
    const { store } = storeOf();
    await store.ensure();
    expect(store.status().state).toBe('ready');
    // What arrived before the connection broke: up to the 150 000 bytes sent, less what the reset dropped.
    const resumedAt = downloads()
      .map((r) => new RegExp(`^GET /cdn/${REPO}/onnx/vision_model_quantized\\.onnx \\[bytes=(\\d+)-\\]$`).exec(r)?.[1])
      .filter(Boolean);
    expect(resumedAt).toHaveLength(1);
    expect(Number(resumedAt[0])).toBeGreaterThan(0);
    expect(Number(resumedAt[0])).toBeLessThanOrEqual(150_000);
    expect(await sameBytes(path.join(modelFolder(), 'onnx/vision_model_quantized.onnx'), files['onnx/vision_model_quantized.onnx']!)).toBe(
      true,
    );
  });

  it('gives up on a transfer that stalls, after resuming it twice', async () => {
    hub.throttle(1000);
    const { store } = storeOf({ retryDelaysMs: [60_000], hub: { stallMs: 150, timeoutMs: 3000 } });
    await store.ensure();
    expect(store.status()).toMatchObject({
      state: 'failed',
      error: 'the download of tokenizer.json broke off after 49152 of 1200000 bytes',
    });
    expect(downloads().filter((r) => r.startsWith(`GET /cdn/${REPO}/tokenizer.json`))).toEqual([
      `GET /cdn/${REPO}/tokenizer.json`,
      `GET /cdn/${REPO}/tokenizer.json [bytes=16384-]`,
      `GET /cdn/${REPO}/tokenizer.json [bytes=32768-]`,
    ]);
    expect(await leftovers()).toEqual([]);
  });

  it('resumes the partial files a stopped server left', async () => {
    const partial = path.join(modelsDir, `.partial-${REPO.replace('/', '--')}@main`);
    await mkdir(path.join(partial, 'onnx'), { recursive: true });
    await writeFile(
      path.join(partial, 'onnx/vision_model_quantized.onnx'),
      files['onnx/vision_model_quantized.onnx']!.subarray(0, 100_000),
    );
    const { store, log } = storeOf();
    await store.ensure();
    expect(store.status().state).toBe('ready');
    expect(downloads()).toContain(`GET /cdn/${REPO}/onnx/vision_model_quantized.onnx [bytes=100000-]`);
    expect(log.lines[0]).toContain('resuming after 0.1 MB');
    expect(await leftovers()).toEqual([]);
  });

  it('clears what a crash left of this model, and only of this model', async () => {
    const flat = REPO.replace('/', '--');
    const left = [`.old-${flat}-0badc0de`, `.partial-${flat}@v0`, '.old-other--model-12345678', '.partial-other--model@main'];
    for (const name of left) await mkdir(path.join(modelsDir, name, 'onnx'), { recursive: true });
    const { store } = storeOf();
    await store.ensure();
    expect(store.status().state).toBe('ready');
    expect((await leftovers()).sort()).toEqual(['.old-other--model-12345678', '.partial-other--model@main']);
  });

  it('keeps the partial files when the server stops in the middle of a download', async () => {
    hub.throttle(500_000);
    const { store } = storeOf();
    void store.ensure();
    await expect.poll(() => store.status().bytesDone, { timeout: 5000 }).toBeGreaterThan(200_000);
    expect(store.status().state).toBe('downloading');
    await store.close();
    expect((await leftovers()).filter((n) => n.startsWith('.partial-'))).toHaveLength(1);
    expect(existsSync(modelFolder())).toBe(false);
  });

  it('downloads once when two servers share the folder: the second waits and takes the result', async () => {
    hub.throttle(4_000_000);
    const first = storeOf().store;
    const second = storeOf().store;
    const both = Promise.all([first.ensure(), second.ensure()]);
    await expect.poll(() => first.status().state === 'downloading' && second.status().state === 'downloading').toBe(true);
    await both;
    expect(first.status().state).toBe('ready');
    expect(second.status().state).toBe('ready');
    for (const name of FETCHED) expect(downloads().filter((r) => r.endsWith(`/resolve/main/${name}`))).toHaveLength(1);
    expect(await leftovers()).toEqual([]);
  });

  it('takes over the download of a server that died holding the lock', async () => {
    await mkdir(modelsDir, { recursive: true });
    const lock = path.join(modelsDir, `.lock-${REPO.replace('/', '--')}`);
    await writeFile(lock, '{"pid":1,"bytesDone":5,"bytesTotal":10}');
    const past = new Date(Date.now() - 10_000);
    const { utimes } = await import('node:fs/promises');
    await utimes(lock, past, past);
    const { store } = storeOf({ lockStaleMs: 1000 });
    await store.ensure();
    expect(store.status().state).toBe('ready');
    expect(existsSync(lock)).toBe(false);
  });

  it('follows a mirror with a path prefix and a file list in pages', async () => {
    const mirror = await startStandInHub({ repos: { [REPO]: repoDir }, pathPrefix: '/mirrors/hf', treePageSize: 3 });
    try {
      const { store } = storeOf({}, mirror.url);
      await store.ensure();
      expect(store.status().state).toBe('ready');
      expect(mirror.url).toMatch(/\/mirrors\/hf$/);
      expect(mirror.requests.filter((r) => r.includes('/api/models/')).length).toBeGreaterThan(2);
      expect(mirror.requests.every((r) => r.startsWith('GET /mirrors/hf/') || r.startsWith('GET /cdn/'))).toBe(true);
    } finally {
      await mirror.close();
    }
  });

  it('accepts a folder copied by hand without a manifest when every required file is there', async () => {
    const folder = modelFolder();
    for (const name of FETCHED.filter((f) => f !== 'special_tokens_map.json')) await cp(path.join(repoDir, name), path.join(folder, name));
    const { store, log } = storeOf({}, `http://127.0.0.1:${await closedPort()}`);
    await store.ensure();
    expect(store.status().state).toBe('ready');
    expect(store.readyDir()).toBe(folder);
    expect(log.lines).toEqual([`info: AI model ${REPO}: using the files copied into ${folder}`]);
    expect(existsSync(path.join(folder, 'nimbus-model.json'))).toBe(false);
  });

  it('downloads again over a copy that lacks a file, replacing it whole', async () => {
    const folder = modelFolder();
    await cp(path.join(repoDir, 'config.json'), path.join(folder, 'config.json'));
    const { store } = storeOf();
    await store.ensure();
    expect(store.status().state).toBe('ready');
    expect(existsSync(path.join(folder, 'nimbus-model.json'))).toBe(true);
    expect(await leftovers()).toEqual([]);
  });

  it('checks sizes at start and every hash on demand', async () => {
    await storeOf().store.ensure();
    const { store } = storeOf();
    expect((await store.verify()).problems).toEqual([]);
    const vision = path.join(modelFolder(), 'onnx/vision_model_quantized.onnx');
    const bytes = await readFile(vision);
    bytes[10] = bytes[10]! ^ 1;
    await writeFile(vision, bytes);
    expect((await store.inspect()).state).toBe('ready');
    expect(await store.verify()).toMatchObject({
      against: 'manifest',
      problems: ['onnx/vision_model_quantized.onnx does not match its sha256 in the manifest'],
    });
    await writeFile(vision, bytes.subarray(1));
    expect((await store.inspect()).state).toBe('missing');
  });

  it('verifies a copied folder against the hub', async () => {
    for (const name of FETCHED) await cp(path.join(repoDir, name), path.join(modelFolder(), name));
    const { store } = storeOf();
    expect(await store.verify()).toMatchObject({ against: 'hub', files: FETCHED.length, problems: [] });
    await writeFile(path.join(modelFolder(), 'tokenizer_config.json'), '{ }');
    expect((await store.verify()).problems).toEqual(['tokenizer_config.json has 3 bytes, the hub lists 2']);
  });

  it('never leaves MODELS_DIR for a model name that climbs out of it', async () => {
    const { store } = storeOf({ retryDelaysMs: [60_000] }, hub.url, '../escape');
    await store.ensure();
    expect(store.status()).toMatchObject({ state: 'failed', error: '"../escape" is not a model repository such as owner/name' });
    expect(hub.requests).toEqual([]);
  });

  it("fetches the suite's generated tiny CLIP as it fetches a real one", async () => {
    const tinyDir = await tempDir('tiny-clip');
    await writeTinyClip(tinyDir, { seed: 3 });
    const tinyHub = await startStandInHub({ repos: { 'nimbus-test/tiny-clip': tinyDir } });
    try {
      const { store } = storeOf({}, tinyHub.url, 'nimbus-test/tiny-clip');
      await store.ensure();
      expect(store.status()).toMatchObject({ state: 'ready', error: null });
      for (const name of FETCHED)
        expect(await sameBytes(path.join(store.readyDir()!, name), await readFile(path.join(tinyDir, name)))).toBe(true);
    } finally {
      await tinyHub.close();
      await rm(tinyDir, { recursive: true, force: true });
    }
  });

  it('is off without a model configured', async () => {
    const off = createModelStore(null, recordingLog());
    await off.ensure();
    expect(off.status()).toEqual({ model: null, state: 'off', bytesDone: 0, bytesTotal: 0, error: null, dir: null });
    expect(off.readyDir()).toBeNull();
  });
});
