// How the server's Node.js process is started, by `npm start` and by the benchmarks alike.
//
// A young generation of 4 MiB semi-spaces (16 by default) and two malloc arenas keep a 1 GiB upload
// or download near 145 MB resident instead of 170–190: streaming allocates a buffer per piece, and
// the default young generation and per-thread arenas hold on to the memory those leave behind.
// Set side by side on one machine, the larger default young generation saved no throughput worth
// the memory.
//
// An old generation that may reach 64 MiB before it is collected keeps transfers at full speed
// once the server has idled. V8 shrinks an idle heap and sets the next collection only a few MB
// above the ~25 MB it holds; the buffers a transfer allocates count against that margin, so a 1 GiB
// upload and three downloads then ran 272 full collections (a third of the main thread) and took
// twice as long. With this floor they ran 4, and resident memory stayed the same: those buffers
// die young and go with the young generation.
//
// --expose-gc lets the server collect once 5 s after it listens (server/src/startup-gc.ts), so the
// garbage of starting up and the young generation it grew leave at once rather than when V8's memory
// reducer gets to them 10–20 s later; and lets the sealing thread collect its young generation every
// 8 MiB sealed (server/src/workers/young-collector.ts), since each `cipher.update` makes a buffer that
// only a collection frees. Nothing else calls gc.
//
// Tried and not used (npm run bench memory, 2026-11-27): V8's --optimize-for-size (102–105 MiB
// resident 10 s after start instead of 121, lower transfer peaks, but a file list made anew took
// twice the CPU: 780–1,020 µs against 350–520), and MALLOC_TRIM_THRESHOLD_=1048576 (no change at
// rest, at the peaks or after idling).
export const serverNodeArgs = ['--max-semi-space-size=4', '--initial-old-space-size=64', '--expose-gc'];
export const serverEnv = { MALLOC_ARENA_MAX: '2' };
