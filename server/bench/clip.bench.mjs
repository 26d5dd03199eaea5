// The image–text model's cost on one thread: a 12-megapixel JPEG's embedding (decode, preprocess,
// vision model) and a query text's embedding, as milliseconds of wall clock and of CPU. Takes the
// model's folder (laid out as on the model hub) from `--model-dir <dir>` or CLIP_MODEL_DIR, e.g.
// `node server/bench/clip.bench.mjs --model-dir data/models/Xenova/clip-vit-base-patch32`;
// without one it says so and measures nothing. BENCH_CLIP_PHOTOS (default 8) sets the photos timed.
// Prints figures; asserts nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';

const dist = path.resolve(import.meta.dirname, '../dist');
const { values } = parseArgs({ options: { 'model-dir': { type: 'string' } }, strict: false });
const dir = values['model-dir'] ?? process.env.CLIP_MODEL_DIR;
const PHOTOS = Number(process.env.BENCH_CLIP_PHOTOS ?? 8);
const QUERIES = ['a dog at the beach', 'sunset over the sea', 'birthday cake with candles', 'snowy mountains', 'people at a party'];

if (typeof dir !== 'string') {
  console.log('clip: no model folder (--model-dir or CLIP_MODEL_DIR), nothing measured');
  process.exit(0);
}

const { decodeForClip } = await import(path.join(dist, 'search/embed/clip-image.js'));
const { clipImageEmbeddings, clipTextEmbeddings, releaseClip } = await import(path.join(dist, 'search/embed/clip-model.js'));

/** Wall-clock and CPU milliseconds of `fn`. */
async function timed(fn) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

// A real photo blown up to 4000×3000 with grain, so the JPEG carries about a camera's detail.
const source = readFileSync(path.resolve(import.meta.dirname, '../test/fixtures/vision/espresso.jpg'));
const grain = { width: 4000, height: 3000, channels: 3 };
const noise = await sharp({ create: { ...grain, noise: { type: 'gaussian', mean: 128, sigma: 16 } } })
  .raw()
  .toBuffer();
const photo = await sharp(source)
  .resize(grain.width, grain.height, { fit: 'cover' })
  .composite([{ input: noise, raw: grain, blend: 'overlay' }])
  .jpeg({ quality: 90 })
  .toBuffer();

const rssBefore = `${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`;
const load = await timed(async () => {
  await clipImageEmbeddings(dir, [await decodeForClip(photo)]);
  await clipTextEmbeddings(dir, ['warm up']);
});
console.log(`clip: model ${dir}, loaded in ${load.wall.toFixed(0)} ms (${load.cpu.toFixed(0)} ms CPU)`);

let decode = { wall: 0, cpu: 0 };
let embed = { wall: 0, cpu: 0 };
for (let i = 0; i < PHOTOS; i++) {
  let image;
  const d = await timed(async () => (image = await decodeForClip(photo)));
  const e = await timed(() => clipImageEmbeddings(dir, [image]));
  decode = { wall: decode.wall + d.wall, cpu: decode.cpu + d.cpu };
  embed = { wall: embed.wall + e.wall, cpu: embed.cpu + e.cpu };
}
const per = (t) => `${(t.wall / PHOTOS).toFixed(0)} ms (${(t.cpu / PHOTOS).toFixed(0)} ms CPU)`;
console.log(
  `clip: 12-megapixel JPEG (${(photo.length / 1e6).toFixed(1)} MB): decode ${per(decode)} + embed ${per(embed)} = ` +
    `${per({ wall: decode.wall + embed.wall, cpu: decode.cpu + embed.cpu })} a photo, over ${PHOTOS}`,
);

const text = await timed(async () => {
  for (const q of QUERIES) await clipTextEmbeddings(dir, [q]);
});
console.log(
  `clip: query text ${(text.wall / QUERIES.length).toFixed(1)} ms (${(text.cpu / QUERIES.length).toFixed(1)} ms CPU), over ${QUERIES.length}`,
);
const rss = () => `${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`;
console.log(`clip: process resident memory ${rss()} with both halves loaded (${rssBefore} before loading)`);
await releaseClip();
console.log(`clip: ${rss()} once released`);
