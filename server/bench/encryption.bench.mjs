// Throughput of the encrypted store on the local disk driver beside a bare fs pipe of the same
// bytes, with the peak RSS of each phase. Phases alternate over a few rounds and the median is
// reported, so a noisy neighbour skews every phase alike. Prints figures, asserts nothing.
//
//   npx tsc -b common server && node --expose-gc server/bench/encryption.bench.mjs [MiB=512] [rounds=3]
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { clearInterval, setInterval } from 'node:timers';
import { ChunkedEncryptedStore } from '../dist/storage/encrypted.store.js';
import { LocalDiskStore } from '../dist/storage/local-disk.store.js';

const MiB = 1024 * 1024;
const size = (Number(process.argv[2]) || 512) * MiB;
const rounds = Number(process.argv[3]) || 3;
const pieceSize = 64 * 1024;
// Random bytes, so nothing downstream can compress or deduplicate them; cycled to save memory.
const block = randomBytes(8 * MiB);

function source() {
  function* pieces() {
    for (let sent = 0; sent < size; sent += pieceSize) {
      const at = sent % block.length;
      yield block.subarray(at, at + Math.min(pieceSize, size - sent));
    }
  }
  return Readable.from(pieces(), { objectMode: false });
}

async function drainInto(stream) {
  let bytes = 0;
  const sink = new Writable({
    write(chunk, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  await pipeline(stream, sink);
  return bytes;
}

async function fsync(file) {
  const handle = await open(file, 'r+');
  await handle.sync();
  await handle.close();
}

const results = new Map();

async function measure(name, run) {
  globalThis.gc?.();
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const started = process.hrtime.bigint();
  const bytes = await run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  if (bytes !== size) throw new Error(`${name}: moved ${bytes} bytes, expected ${size}`);
  const runs = results.get(name) ?? [];
  runs.push({ mbps: size / 1e6 / seconds, peak });
  results.set(name, runs);
}

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dir = await mkdtemp(path.join(tmpdir(), 'nimbus-bench-'));
try {
  const bareFile = path.join(dir, 'bare');
  const disk = new LocalDiskStore(path.join(dir, 'store'));
  const encrypted = new ChunkedEncryptedStore(disk, randomBytes(32));
  const singleThread = new ChunkedEncryptedStore(disk, randomBytes(32), { hashWorkers: 0 });
  for (let round = 1; round <= rounds; round++) {
    await measure('bare fs write (pipe + fsync)', async () => {
      await pipeline(source(), createWriteStream(bareFile));
      await fsync(bareFile);
      return size;
    });
    await measure('fs store put, no encryption', async () => (await disk.put('plain', source())).size);
    let written;
    await measure('encrypt + fs store put', async () => {
      written = await encrypted.write('sealed', source());
      return written.size;
    });
    await measure('… hashing on the same thread', async () => {
      const result = await singleThread.write('sealed-1', source());
      return result.size;
    });
    await measure('bare fs read (pipe)', () => drainInto(createReadStream(bareFile)));
    await measure('fs store get, no encryption', async () => drainInto(await disk.get('plain')));
    await measure('fs store get + decrypt', async () => drainInto(await encrypted.read('sealed', written.wrappedKey, written.size)));
    await Promise.all([rm(bareFile), disk.delete('plain'), encrypted.delete('sealed'), disk.delete('sealed-1')]);
    process.stderr.write(`round ${round}/${rounds} done\n`);
  }
  await singleThread.close();
  await encrypted.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}

const rows = [...results].map(([phase, runs]) => ({
  phase,
  'MB/s (median)': Math.round(median(runs.map((r) => r.mbps))),
  'MB/s (runs)': runs.map((r) => Math.round(r.mbps)).join(' '),
  'peak RSS MB': Math.round(Math.max(...runs.map((r) => r.peak)) / 1e6),
}));
const rate = (phase) => rows.find((r) => r.phase === phase)['MB/s (median)'];
console.log(`${size / MiB} MiB stream, 64 KiB chunks, ${rounds} rounds, Node ${process.version}, ${process.platform}/${process.arch}`);
console.table(rows);
console.log(
  `encrypted write = ${Math.round((100 * rate('encrypt + fs store put')) / rate('bare fs write (pipe + fsync)'))} % of the bare pipe`,
);
console.log(`encrypted read  = ${Math.round((100 * rate('fs store get + decrypt')) / rate('bare fs read (pipe)'))} % of the bare pipe`);
