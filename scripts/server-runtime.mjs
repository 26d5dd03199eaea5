// How the server's Node.js process is started, by `npm start` and by the benchmarks alike.
//
// A young generation of 4 MiB semi-spaces (16 by default) and two malloc arenas keep a 1 GiB upload
// or download near 145 MB resident instead of 170–190: streaming allocates a buffer per piece, and
// the default young generation and per-thread arenas hold on to the memory those leave behind.
// Set side by side on one machine, the larger default young generation saved no throughput worth
// the memory.
export const serverNodeArgs = ['--max-semi-space-size=4'];
export const serverEnv = { MALLOC_ARENA_MAX: '2' };
