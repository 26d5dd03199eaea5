import os from 'node:os';

/** Runs at most `slots` tasks at once; the rest wait in order. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly slots: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next waiter, so none can be overtaken.
    if (this.active < this.slots) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** CPU-heavy media work (decoding, scaling, ffmpeg): one task per core in this process. */
export const heavyWork = new Limiter(os.availableParallelism());
