import os from 'node:os';
import pLimit from 'p-limit';

/** CPU-heavy media work (decoding, scaling, ffmpeg): one task per core in this process. */
export const heavyWork = pLimit(os.availableParallelism());
