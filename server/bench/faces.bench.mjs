// The cost of a face pass (people in photos) on 12-megapixel JPEGs: CPU time of decoding, of the
// networks and of the whole pass, the first pass's model load, the memory held while the face
// thread is loaded and after it ends idle. Uses scikit-image's astronaut photograph, enlarged to
// 4032×3024 with grain as a phone stores it (fetched like the search evaluation's photos). BENCH_FACES passes.
// Needs the server built (npm run build). Prints figures; asserts nothing.
//   node server/bench/faces.bench.mjs
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { serverEnv, serverNodeArgs } from '../../scripts/server-runtime.mjs';
import { fetchRealMedia } from '../eval/fetch-real-media.mjs';

// Memory is measured as the server runs (npm start's Node flags and malloc arenas): this process
// runs itself again under them when it was not started so.
if (process.env.MALLOC_ARENA_MAX !== serverEnv.MALLOC_ARENA_MAX) {
  const rerun = spawnSync(process.execPath, [...serverNodeArgs, '--expose-gc', import.meta.filename], {
    stdio: 'inherit',
    env: { ...process.env, ...serverEnv },
  });
  process.exit(rerun.status ?? 1);
}

const dist = path.resolve(import.meta.dirname, '../dist');
const { FaceDetector, ANALYSIS_SIDE } = await import(path.join(dist, 'people/face-detector.js'));
const PASSES = Number(process.env.BENCH_FACES ?? 8);
const IDLE_MS = 3000;
const MB = 1024 * 1024;

const dir = await fetchRealMedia({ only: new Set(['Camera/IMG_7101.jpg']) });
const astronaut = await readFile(path.join(dir, 'Camera/IMG_7101.jpg'));
// Grain as a phone's sensor leaves it, so the JPEG has a real photo's detail (and size) to decode.
const grain = await sharp({ create: { width: 4032, height: 3024, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 24 } } })
  .png()
  .toBuffer();
const photo = await sharp(astronaut)
  .resize(4032, 3024, { fit: 'cover' })
  .composite([{ input: grain, blend: 'soft-light' }])
  .jpeg({ quality: 90 })
  .toBuffer();

/** CPU seconds of every thread of this process (main, libuv's decoders and the face thread). */
function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

async function measure(work) {
  const cpu = cpuSeconds();
  const wall = performance.now();
  const result = await work();
  return { result, cpu: cpuSeconds() - cpu, wall: (performance.now() - wall) / 1000 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n) => n.toFixed(3);

const decodes = [];
for (let i = 0; i < PASSES; i++) {
  decodes.push(
    (await measure(() => sharp(photo).rotate().resize(ANALYSIS_SIDE, ANALYSIS_SIDE, { fit: 'inside' }).removeAlpha().raw().toBuffer())).cpu,
  );
}

const rssBefore = process.memoryUsage().rss;
const detector = new FaceDetector({ idleTimeoutMs: IDLE_MS });
const first = await measure(() => detector.detect(photo));
const passes = [];
for (let i = 0; i < PASSES; i++) passes.push(await measure(() => detector.detect(photo)));
const rssLoaded = process.memoryUsage().rss;
const threadsLoaded = detector.threads;
await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 2000));
// What the main thread let go of meanwhile is collected too.
globalThis.gc?.();
const rssIdle = process.memoryUsage().rss;

console.log(`12-megapixel JPEG (4032×3024, ${(photo.length / MB).toFixed(1)} MB), analysed at ${ANALYSIS_SIDE} px, ${PASSES} passes`);
console.log(`faces found: ${passes[0].result.length}`);
console.log(`decode + downscale: ${fmt(median(decodes))} s CPU (median)`);
console.log(`first pass (loads the networks): ${fmt(first.cpu)} s CPU, ${fmt(first.wall)} s wall`);
console.log(
  `face pass, decode included: ${fmt(median(passes.map((p) => p.cpu)))} s CPU, ${fmt(median(passes.map((p) => p.wall)))} s wall (median)`,
);
console.log(`slowest pass: ${fmt(Math.max(...passes.map((p) => p.cpu)))} s CPU`);
console.log(
  `RSS: ${(rssBefore / MB).toFixed(0)} MB before, ${(rssLoaded / MB).toFixed(0)} MB with the face thread (${threadsLoaded} thread), ` +
    `${(rssIdle / MB).toFixed(0)} MB after it ended idle (${detector.threads} threads)`,
);
await detector.close();
