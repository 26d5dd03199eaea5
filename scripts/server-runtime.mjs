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
// V8's --optimize-for-size collects the garbage of start-up within seconds instead of at the first
// idle collection (about 30 s), and grows the heap in smaller steps: 102–105 MiB resident 10 s
// after start instead of 121, 150–168 MiB at the peak of a 1 GiB transfer instead of 176–195, and
// transfers no slower in a run after one without it. A fixed malloc trim threshold of 1 MiB hands
// freed memory back to the system (glibc otherwise raises it with every large buffer freed): after
// a transfer and 30 s idle 132–134 MiB instead of 151.
export const serverNodeArgs = ['--max-semi-space-size=4', '--initial-old-space-size=64', '--optimize-for-size'];
export const serverEnv = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '1048576' };
