// Zip download throughput and peak server RSS for a folder of mixed file sizes (1 GiB by default,
// BENCH_ZIP_BYTES changes it), and thumbnails per second for 12-megapixel JPEGs (BENCH_THUMBNAILS
// of them), and the cost of a 12-megapixel HEIC's thumbnail and preview (BENCH_HEICS runs). Prints
// figures; asserts nothing.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';

const dist = path.resolve(import.meta.dirname, '../dist');
const ZIP_BYTES = Number(process.env.BENCH_ZIP_BYTES ?? 1024 * 1024 * 1024);
const THUMBNAILS = Number(process.env.BENCH_THUMBNAILS ?? 24);
const HEVC_SECONDS = Number(process.env.BENCH_HEVC_SECONDS ?? 10);
const HEVC_THREADS = Number(process.env.VIDEO_TRANSCODE_THREADS ?? 1);
const HEICS = Number(process.env.BENCH_HEICS ?? 4);
const MB = 1024 * 1024;
// Documents, photos, songs and videos: many small files and a few large ones.
const SIZES = [4 * 1024, 64 * 1024, 512 * 1024, 3 * MB, 8 * MB, 48 * MB];
const fmt = (n) => n.toFixed(n < 10 ? 2 : 1);

const block = randomBytes(MB);
function body(size) {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(MB, size - sent);
      sent += n;
      this.push(n === MB ? block : block.subarray(0, n));
    },
  });
}

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

function request(url, { method = 'GET', headers = {}, payload } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, resolve);
    req.on('error', reject);
    if (payload) pipeline(payload, req).catch(reject);
    else req.end();
  });
}

async function text(res) {
  const parts = [];
  for await (const chunk of res) parts.push(chunk);
  return Buffer.concat(parts).toString();
}

const status = (pid) => readFileSync(`/proc/${pid}/status`, 'utf8');
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(status(pid))[1]) / 1024;

async function upload(base, auth, parent, name, size) {
  const boundary = `----nimbus${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="parent"\r\n\r\n${parent}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const multipart = Readable.from(
    (async function* () {
      yield head;
      yield* body(size);
      yield tail;
    })(),
  );
  const res = await request(`${base}/file-service/upload`, {
    method: 'POST',
    headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    payload: multipart,
  });
  const answer = await text(res);
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${answer}`);
  return JSON.parse(answer);
}

async function zipDownload(dir) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(dist, 'main.js')], {
    env: {
      ...process.env,
      DATA_DIR: path.join(dir, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEMANTIC_SEARCH: 'off',
    },
    stdio: 'inherit',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${base}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const uuid = randomUUID();
    const created = await fetch(`${base}/user-service/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', uuid },
      body: JSON.stringify({ email: `bench-${uuid}@example.com`, password: 'bench-password' }),
    });
    const auth = {
      uuid,
      cookie: created.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    };
    const folder = async (name, parent) =>
      (
        await fetch(`${base}/folder-service/create`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name, parent }),
        })
      ).json();
    const root = await folder('Bench', '/');
    const subfolders = [root._id, (await folder('Photos', root._id))._id, (await folder('Videos', root._id))._id];

    let total = 0;
    let files = 0;
    let largest = null;
    for (let i = 0; total < ZIP_BYTES; i++) {
      const size = Math.min(SIZES[i % SIZES.length], ZIP_BYTES - total);
      const file = await upload(base, auth, subfolders[i % subfolders.length], `file-${i}.bin`, size);
      if (!largest || size > largest.length) largest = file;
      total += size;
      files++;
    }

    // Peak RSS from here on: Linux resets VmHWM on "5"; sampling VmRSS covers kernels that do not.
    try {
      writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    } catch {
      // Sampling alone then.
    }
    const atRest = rssMb(child.pid);
    let peak = atRest;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid))), 20);

    let t = performance.now();
    let received = 0;
    const res = await request(`${base}/folder-service/download-zip?folderIDs[]=${root._id}`, { headers: auth });
    for await (const chunk of res) received += chunk.length;
    const zipSeconds = (performance.now() - t) / 1000;
    clearInterval(sampler);
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(status(child.pid))[1]) / 1024;
    if (res.statusCode !== 200 || received < total) throw new Error(`zip: ${res.statusCode}, ${received} bytes`);

    t = performance.now();
    let single = 0;
    for await (const chunk of await request(`${base}/file-service/download/${largest._id}`, { headers: auth })) single += chunk.length;
    const singleSeconds = (performance.now() - t) / 1000;
    return { total, files, received, zipSeconds, atRest, peak: Math.max(peak, hwm), single, singleSeconds };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

/** A 12-megapixel photo-like JPEG: smooth gradients plus sensor-like noise, about 4 MB at quality 90. */
async function photo(seed) {
  const width = 4000;
  const height = 3000;
  const gradient = await sharp({ create: { width, height, channels: 3, background: { r: 40 + seed * 30, g: 120, b: 200 - seed * 20 } } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${1000 + seed * 500}" cy="1500" r="1200" fill="orange"/></svg>`,
        ),
      },
    ])
    .raw()
    .toBuffer();
  const noise = await sharp({ create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 0, sigma: 12 } } })
    .raw()
    .toBuffer();
  for (let i = 0; i < gradient.length; i++) gradient[i] = Math.max(0, Math.min(255, gradient[i] + noise[i] - 6));
  return sharp(gradient, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function thumbnails(dir) {
  const { imageThumbnail } = await import(`${dist}/media/image-thumbnailer.js`);
  const { heavyWork } = await import(`${dist}/media/limiter.js`);
  const { buildApp } = await import(`${dist}/app.js`);
  const { loadConfig } = await import(`${dist}/config.js`);
  const photos = await Promise.all([0, 1, 2, 3].map(photo));
  const meanMb = photos.reduce((n, p) => n + p.length, 0) / photos.length / MB;

  // The image work alone, one per core as the server allows.
  let t = performance.now();
  await Promise.all(Array.from({ length: THUMBNAILS }, (_, i) => heavyWork(() => imageThumbnail(photos[i % photos.length]))));
  const raw = THUMBNAILS / ((performance.now() - t) / 1000);

  // The whole job as the worker runs it: decrypt, decode, scale, encode, encrypt, record; one at a time.
  const config = loadConfig({ DATA_DIR: path.join(dir, 'thumbs'), LOG_LEVEL: 'silent', SEMANTIC_SEARCH: 'off' }, dir);
  const app = await buildApp(config);
  try {
    const uuid = randomUUID();
    const created = await app.inject({
      method: 'POST',
      url: '/user-service/create',
      headers: { uuid },
      payload: { email: 'thumbs@example.com', password: 'bench-password' },
    });
    const cookie = created.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (let i = 0; i < THUMBNAILS; i++) {
      const form = new FormData();
      form.append('file', new Blob([photos[i % photos.length]], { type: 'image/jpeg' }), `photo-${i}.jpg`);
      const payload = new Response(form);
      const res = await app.inject({
        method: 'POST',
        url: '/file-service/upload',
        headers: { uuid, cookie, 'content-type': payload.headers.get('content-type') },
        payload: Buffer.from(await payload.arrayBuffer()),
      });
      if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
    }
    // Only thumbnail jobs are measured here; anything else the uploads queued is not.
    await app.database.db.deleteFrom('job').where('name', '!=', 'file.thumbnail').execute();
    t = performance.now();
    await app.background.drainJobs();
    const jobs = THUMBNAILS / ((performance.now() - t) / 1000);
    const made = await app.database.db.selectFrom('fileMedia').select('status').where('status', '=', 'ready').execute();
    if (made.length !== THUMBNAILS) throw new Error(`${made.length} of ${THUMBNAILS} thumbnails made`);
    return { raw, jobs, meanMb };
  } finally {
    await app.close();
  }
}

/**
 * A 12-megapixel HEIC as a phone makes it (heif-enc, HEVC), then the thumbnail job's image work for
 * it one at a time: decoding in the worker (WebAssembly libheif), the thumbnail and the full-size
 * preview. Skipped without heif-enc (Debian's libheif-examples).
 */
async function heicCost(dir) {
  const encoder = spawnSync('heif-enc', ['--help']);
  if (encoder.error) return null;
  const { decodeHeif, closeHeifPool } = await import(`${dist}/media/heif.js`);
  const { imageThumbnail, imagePreview } = await import(`${dist}/media/image-thumbnailer.js`);
  const jpeg = path.join(dir, 'heic-source.jpg');
  const heicFile = path.join(dir, 'photo.heic');
  writeFileSync(jpeg, await photo(1));
  const made = spawnSync('heif-enc', ['-q', '50', jpeg, '-o', heicFile]);
  if (made.status !== 0) throw new Error(`heif-enc failed: ${made.stderr}`);
  const heic = readFileSync(heicFile);
  try {
    await decodeHeif(heic); // starts the thread and loads the WebAssembly module, as the first photo after a pause does
    const ms = { decode: 0, thumbnail: 0, preview: 0 };
    for (let i = 0; i < HEICS; i++) {
      let t = performance.now();
      const pixels = await decodeHeif(heic);
      ms.decode += performance.now() - t;
      t = performance.now();
      await imageThumbnail(pixels);
      ms.thumbnail += performance.now() - t;
      t = performance.now();
      await imagePreview(pixels);
      ms.preview += performance.now() - t;
    }
    const mean = (n) => n / HEICS;
    return { mb: heic.length / MB, decodeMs: mean(ms.decode), thumbnailMs: mean(ms.thumbnail), previewMs: mean(ms.preview) };
  } finally {
    await closeHeifPool();
  }
}

/**
 * The cost of a video rendition: a 1080p HEVC clip as a phone records it (BENCH_HEVC_SECONDS long,
 * with sensor-like grain so the encoder has real work), transcoded as the video.rendition job does
 * (ffprobe, then ffmpeg at nice 19 with VIDEO_TRANSCODE_THREADS threads, default 1, reading over the
 * loopback URL), and scaled to a minute of video. Skipped without ffmpeg or libx265.
 */
async function hevcRenditionCost(dir) {
  if (spawnSync('ffmpeg', ['-hide_banner', '-h', 'encoder=libx265']).status !== 0) return null;
  const { probeVideo, playbackPlan } = await import(`${dist}/media/video-probe.js`);
  const { renderVideo } = await import(`${dist}/media/video-transcode.js`);
  const { withLoopbackUrl } = await import(`${dist}/media/loopback-source.js`);
  const { createReadStream, statSync } = await import('node:fs');
  const source = path.join(dir, 'phone-1080p.mp4');
  const made = spawnSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=duration=${HEVC_SECONDS}:size=1920x1080:rate=30`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${HEVC_SECONDS}`],
    ...['-vf', 'noise=alls=12:allf=t', '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-b:v', '8M'],
    ...['-tag:v', 'hvc1', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', source],
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg failed: ${made.stderr}`);
  const size = statSync(source).size;
  const open = async (range) => createReadStream(source, range ? { start: range.start, end: range.end } : {});
  const output = path.join(dir, 'rendition.mp4');
  const t = performance.now();
  await withLoopbackUrl(size, open, async (url) => {
    const probe = await probeVideo('ffprobe', url);
    await renderVideo('ffmpeg', url, output, probe, playbackPlan(probe, 'video/mp4'), {
      maxHeight: 1080,
      threads: HEVC_THREADS,
      sourceBytes: size,
    });
  });
  const seconds = (performance.now() - t) / 1000;
  return { seconds, perMinute: (seconds / HEVC_SECONDS) * 60, inMb: size / MB, outMb: statSync(output).size / MB };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-media-bench-'));
try {
  console.log(
    `\n# media benchmark (${fmt(ZIP_BYTES / MB)} MiB zip, ${THUMBNAILS} thumbnails), node ${process.version}, ${os.availableParallelism()} cores`,
  );
  const zip = await zipDownload(dir);
  console.log(
    `zip download              ${zip.files} files, ${fmt(zip.total / MB)} MiB: ${fmt(zip.received / MB / zip.zipSeconds)} MB/s` +
      `   (one ${fmt(zip.single / MB)} MiB file: ${fmt(zip.single / MB / zip.singleSeconds)} MB/s)`,
  );
  console.log(`server RSS during the zip  at rest ${fmt(zip.atRest)} MB   peak ${fmt(zip.peak)} MB`);
  const thumbs = await thumbnails(dir);
  console.log(
    `12-megapixel JPEG (${fmt(thumbs.meanMb)} MB)  thumbnail alone ${fmt(thumbs.raw)}/s on all cores   whole job ${fmt(thumbs.jobs)}/s one at a time`,
  );
  const heic = await heicCost(dir);
  console.log(
    heic
      ? `12-megapixel HEIC (${fmt(heic.mb)} MB)  decode ${fmt(heic.decodeMs)} ms + thumbnail ${fmt(heic.thumbnailMs)} ms + full-size preview ${fmt(heic.previewMs)} ms` +
          ` = ${fmt(heic.decodeMs + heic.thumbnailMs + heic.previewMs)} ms per photo, one at a time`
      : '12-megapixel HEIC          skipped: heif-enc is not installed',
  );
  const rendition = await hevcRenditionCost(dir);
  console.log(
    rendition
      ? `1080p HEVC video (${HEVC_SECONDS} s, ${fmt(rendition.inMb)} MB)  rendition (H.264/AAC, ${HEVC_THREADS} thread${HEVC_THREADS === 1 ? '' : 's'}) ${fmt(rendition.seconds)} s` +
          ` = ${fmt(rendition.perMinute)} s per minute of video, ${fmt(rendition.outMb)} MB`
      : '1080p HEVC video            skipped: ffmpeg with libx265 is not installed',
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
