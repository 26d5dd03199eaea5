import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';

/** What the process holding the lock is doing, for the processes waiting on it. */
export interface LockProgress {
  bytesDone: number;
  bytesTotal: number;
}

/**
 * One download per model folder among the servers sharing MODELS_DIR: a file created exclusively,
 * rewritten while its holder works (its age says whether the holder still lives) and carrying the
 * progress, which the waiting servers show as their own. A holder that died leaves a lock nobody
 * rewrites; after `staleMs` another process takes it over and resumes the partial files.
 */
export class DownloadLock {
  private progress: LockProgress = { bytesDone: 0, bytesTotal: 0 };
  private readonly heartbeat: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    staleMs: number,
  ) {
    this.heartbeat = setInterval(() => void this.write(), Math.max(50, Math.floor(staleMs / 4)));
    this.heartbeat.unref();
  }

  /** The lock, or null while a live process holds it. */
  static async tryAcquire(file: string, staleMs: number): Promise<DownloadLock | null> {
    for (let tries = 0; tries < 2; tries++) {
      try {
        const handle = await open(file, 'wx');
        await handle.writeFile(JSON.stringify({ pid: process.pid, host: os.hostname(), bytesDone: 0, bytesTotal: 0 }));
        await handle.close();
        return new DownloadLock(file, staleMs);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const held = await DownloadLock.read(file);
      if (held && held.ageMs < staleMs) return null;
      // Renaming first: of two processes finding the same stale lock, only one moves it away.
      const aside = `${file}.stale-${randomBytes(4).toString('hex')}`;
      await rename(file, aside).then(
        () => rm(aside, { force: true }),
        () => undefined,
      );
    }
    return null;
  }

  /** The holder's progress and how long ago it last wrote; null when nobody holds the lock. */
  static async read(file: string): Promise<{ progress: LockProgress | null; ageMs: number } | null> {
    try {
      const [info, text] = await Promise.all([stat(file), readFile(file, 'utf8')]);
      return { progress: progressOf(text), ageMs: Date.now() - info.mtimeMs };
    } catch {
      return null;
    }
  }

  report(progress: LockProgress): void {
    this.progress = progress;
  }

  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.writing;
    await rm(this.file, { force: true });
  }

  private write(): Promise<void> {
    const content = JSON.stringify({ pid: process.pid, host: os.hostname(), ...this.progress });
    this.writing = this.writing.then(() => writeFile(this.file, content).catch(() => undefined));
    return this.writing;
  }
}

function progressOf(text: string): LockProgress | null {
  try {
    const parsed = JSON.parse(text) as Partial<LockProgress>;
    return typeof parsed.bytesDone === 'number' && typeof parsed.bytesTotal === 'number'
      ? { bytesDone: parsed.bytesDone, bytesTotal: parsed.bytesTotal }
      : null;
  } catch {
    return null;
  }
}
