import type { Logger } from '../logger.js';

const MB = 1_000_000;

/** Start, each tenth, and the end of a download, with the speed. */
export class ProgressLog {
  private readonly started = performance.now();
  private lastTenth: number;

  constructor(
    private readonly log: Logger,
    private readonly model: string,
    private readonly total: number,
    private readonly from: number,
  ) {
    this.lastTenth = total > 0 ? Math.floor((from / total) * 10) : 0;
  }

  update(done: number): void {
    const tenth = this.total > 0 ? Math.floor((done / this.total) * 10) : 10;
    if (tenth <= this.lastTenth || tenth >= 10) return;
    this.lastTenth = tenth;
    this.log.info(
      { model: this.model, bytesDone: done, bytesTotal: this.total },
      `AI model ${this.model}: ${tenth * 10} % (${(done / MB).toFixed(1)} of ${(this.total / MB).toFixed(1)} MB, ${this.speed(done)} MB/s)`,
    );
  }

  done(): void {
    const seconds = (performance.now() - this.started) / 1000;
    this.log.info(
      { model: this.model, bytes: this.total },
      `AI model ${this.model}: ready, ${(this.total / MB).toFixed(1)} MB verified in ${seconds.toFixed(1)} s (${this.speed(this.total)} MB/s)`,
    );
  }

  private speed(done: number): string {
    const seconds = Math.max(0.001, (performance.now() - this.started) / 1000);
    return ((done - this.from) / MB / seconds).toFixed(1);
  }
}
