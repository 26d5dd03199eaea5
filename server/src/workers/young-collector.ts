type Gc = (options: { type: 'minor' }) => void;

/**
 * Collects this thread's young generation once every `everyBytes` of short-lived buffers it made,
 * where Node exposes `gc` (`npm start` passes --expose-gc). Each `cipher.update` returns a new
 * buffer; V8 frees a dead one only when a collection runs, and a thread that makes few JavaScript
 * objects runs few, so a 1 GiB upload left 30–40 MB of dead buffers waiting in the sealing thread.
 * A young collection of a thread holding so little costs well under a millisecond.
 */
export class YoungCollector {
  private made = 0;

  constructor(
    private readonly everyBytes: number,
    private readonly gc: Gc | undefined = (globalThis as { gc?: Gc }).gc,
  ) {}

  /** Counts `bytes` of buffers just made, and collects when enough have gathered. */
  add(bytes: number): void {
    if (!this.gc) return;
    this.made += bytes;
    if (this.made < this.everyBytes) return;
    this.made = 0;
    this.gc({ type: 'minor' });
  }
}

/**
 * This thread's count of upload bodies read. The socket makes a new buffer for every piece; on the
 * request thread, which otherwise makes few objects while it stores an upload, dead ones piled up
 * before V8 collected them: collecting every 16 MiB took a 1 GiB upload's peak from 152–153 to
 * 134–135 MiB (2026-11-28, two runs each way). The same for downloads raised their peak instead.
 */
export const uploadBuffers = new YoungCollector(16 * 1024 * 1024);
