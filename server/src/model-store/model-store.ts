import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SmartModelConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { DownloadLock } from './download-lock.js';
import { digestFile } from './file-digest.js';
import { HubClient, HubError, mismatch, type HubClientOptions, type HubFile } from './hub-client.js';
import { CLIP_MODEL_FILES, MANIFEST_FILE, type ModelFileNeed, type ModelManifest } from './model-files.js';
import { ProgressLog } from './progress-log.js';
import { inspectFolder, isSafeModelId, modelFolder, verifyFolder, type VerifyReport } from './model-on-disk.js';
import type { ModelStatus, SmartModelSource } from './model-status.js';

export interface ModelStoreOptions {
  hub?: HubClientOptions;
  /** Waits before the next try after a failure, the last one repeating. */
  retryDelaysMs?: readonly number[];
  /** A lock nobody rewrote for this long belongs to a process that died. */
  lockStaleMs?: number;
  /** How often a process waiting on another's download looks again. */
  pollMs?: number;
  files?: readonly ModelFileNeed[];
}

const HOUR = 3_600_000;
const DEFAULT_RETRY_DELAYS_MS = [HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 24 * HOUR];
const MB = 1_000_000;

/**
 * The image–text model's files in `<MODELS_DIR>/<repo>`: used as they are when complete, else
 * downloaded once from the hub into a partial folder beside it, each file verified, and moved into
 * place with its manifest, so a crash never leaves a half model that looks whole. A failure leaves
 * search on the bundled pipeline, is logged once and tried again later with growing waits.
 */
export class ModelStore implements SmartModelSource {
  private readonly folder: string;
  private readonly partial: string;
  private readonly lockFile: string;
  private readonly hub: HubClient;
  private readonly files: readonly ModelFileNeed[];
  private readonly retryDelaysMs: readonly number[];
  private readonly lockStaleMs: number;
  private readonly pollMs: number;
  private state: ModelStatus['state'] = 'missing';
  private bytesDone = 0;
  private bytesTotal = 0;
  private error: string | null = null;
  private running: Promise<void> | null = null;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly stop = new AbortController();

  constructor(
    readonly config: SmartModelConfig,
    private readonly log: Logger,
    options: ModelStoreOptions = {},
  ) {
    this.folder = modelFolder(config);
    const flat = `${config.id.replace('/', '--')}@${config.revision.replace(/[^\w.-]/g, '_')}`;
    this.partial = path.join(config.dir, `.partial-${flat}`);
    this.lockFile = path.join(config.dir, `.lock-${config.id.replace('/', '--')}`);
    this.hub = new HubClient(config.hubUrl, options.hub);
    this.files = options.files ?? CLIP_MODEL_FILES;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.lockStaleMs = options.lockStaleMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1000;
  }

  status(): ModelStatus {
    return {
      model: this.config.id,
      state: this.state,
      bytesDone: this.bytesDone,
      bytesTotal: this.bytesTotal,
      error: this.error,
      dir: this.folder,
    };
  }

  readyDir(): string | null {
    return this.state === 'ready' ? this.folder : null;
  }

  ensure(): Promise<void> {
    this.running ??= this.attempt();
    return this.running;
  }

  /** Looks at the disk only, never at the hub: what `models status` shows. */
  async inspect(): Promise<ModelStatus> {
    if (this.state !== 'downloading') await this.checkDisk();
    return this.status();
  }

  /** Every file hashed against the manifest, or against the hub's list for a folder copied by hand. */
  verify(): Promise<VerifyReport> {
    return verifyFolder(this.config, this.files, this.hub);
  }

  /** Ends a download in progress (its partial files stay, to resume at the next start) and any planned retry. */
  async close(): Promise<void> {
    this.stop.abort();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.running;
  }

  private async attempt(): Promise<void> {
    try {
      if (!isSafeModelId(this.config.id)) throw new HubError(`"${this.config.id}" is not a model repository such as owner/name`);
      if (await this.checkDisk()) return;
      await this.fetchOnce();
      this.failures = 0;
    } catch (err) {
      if (this.stop.signal.aborted) return;
      this.fail(describe(err, this.config.dir));
    } finally {
      this.running = null;
    }
  }

  private async checkDisk(): Promise<boolean> {
    const found = await inspectFolder(this.config, this.files);
    if (found.complete) {
      this.state = 'ready';
      this.bytesDone = this.bytesTotal = found.bytes;
      this.error = null;
      if (!found.hasManifest) this.log.info({ dir: this.folder }, `AI model ${this.config.id}: using the files copied into ${this.folder}`);
      return true;
    }
    if (this.state === 'ready') this.state = 'missing';
    return false;
  }

  /** Downloads under the lock, or waits for the process holding it and takes its result. */
  private async fetchOnce(): Promise<void> {
    await mkdir(this.config.dir, { recursive: true });
    // A retry shows the last failure until the hub answers again.
    if (this.state !== 'failed') this.state = 'downloading';
    for (;;) {
      const lock = await DownloadLock.tryAcquire(this.lockFile, this.lockStaleMs);
      if (lock) {
        try {
          if (await this.checkDisk()) return;
          return await this.download(lock);
        } finally {
          await lock.release();
        }
      }
      const held = await DownloadLock.read(this.lockFile);
      this.state = 'downloading';
      this.error = null;
      if (held?.progress) ({ bytesDone: this.bytesDone, bytesTotal: this.bytesTotal } = held.progress);
      await sleep(this.pollMs, undefined, { signal: this.stop.signal });
      if (!held && (await this.checkDisk())) return;
    }
  }

  private async download(lock: DownloadLock): Promise<void> {
    await this.sweepLeftovers();
    const listed = await this.hub.listFiles(this.config.id, this.config.revision, this.stop.signal);
    const wanted = this.pick(listed);
    this.state = 'downloading';
    this.error = null;
    this.bytesTotal = wanted.reduce((sum, f) => sum + f.size, 0);
    this.bytesDone = 0;
    for (const file of wanted) this.bytesDone += Math.min(file.size, (await sizeOf(path.join(this.partial, file.path))) ?? 0);
    const progress = new ProgressLog(this.log, this.config.id, this.bytesTotal, this.bytesDone);
    this.log.info(
      { model: this.config.id, revision: this.config.revision, hub: this.config.hubUrl, bytes: this.bytesTotal },
      `AI model ${this.config.id}: downloading ${(this.bytesTotal / MB).toFixed(1)} MB${this.bytesDone > 0 ? `, resuming after ${(this.bytesDone / MB).toFixed(1)} MB` : ''}`,
    );
    try {
      const manifest: ModelManifest = { repo: this.config.id, revision: this.config.revision, files: [], fetchedAt: '' };
      for (const file of wanted) {
        const dest = path.join(this.partial, file.path);
        await mkdir(path.dirname(dest), { recursive: true });
        await this.hub.download(
          this.config.id,
          this.config.revision,
          file,
          dest,
          (delta) => {
            this.bytesDone += delta;
            lock.report({ bytesDone: this.bytesDone, bytesTotal: this.bytesTotal });
            progress.update(this.bytesDone);
          },
          this.stop.signal,
        );
        const digests = await digestFile(dest);
        const problem = mismatch(file, digests);
        if (problem) throw new HubError(problem);
        manifest.files.push({ path: file.path, size: digests.size, sha256: digests.sha256 });
      }
      manifest.fetchedAt = new Date().toISOString();
      await writeFile(path.join(this.partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
      await this.moveIntoPlace();
    } catch (err) {
      // Stopped by a shutdown: the partial files stay for the next start to resume.
      if (!this.stop.signal.aborted) await rm(this.partial, { recursive: true, force: true });
      throw err;
    }
    this.state = 'ready';
    this.bytesDone = this.bytesTotal;
    progress.done();
  }

  private pick(listed: HubFile[]): HubFile[] {
    const byPath = new Map(listed.map((f) => [f.path, f]));
    const wanted: HubFile[] = [];
    for (const need of this.files) {
      const file = byPath.get(need.path);
      if (file) wanted.push(file);
      else if (!need.optional) throw new HubError(`${this.config.id}@${this.config.revision} on the hub has no ${need.path}`);
    }
    return wanted;
  }

  /**
   * What a crash left of this model: a replaced folder not yet removed, the partial files of another
   * revision. Under the lock, so no other process is using them.
   */
  private async sweepLeftovers(): Promise<void> {
    const flat = this.config.id.replace('/', '--');
    const current = path.basename(this.partial);
    for (const name of await readdir(this.config.dir)) {
      if (name.startsWith(`.old-${flat}-`) || (name.startsWith(`.partial-${flat}@`) && name !== current))
        await rm(path.join(this.config.dir, name), { recursive: true, force: true });
    }
  }

  /** A folder already there (an older revision, a damaged copy) is moved aside first: a rename cannot replace a folder. */
  private async moveIntoPlace(): Promise<void> {
    await mkdir(path.dirname(this.folder), { recursive: true });
    const aside = path.join(this.config.dir, `.old-${this.config.id.replace('/', '--')}-${randomBytes(4).toString('hex')}`);
    const hadOne = await rename(this.folder, aside).then(
      () => true,
      () => false,
    );
    await rename(this.partial, this.folder);
    if (hadOne) await rm(aside, { recursive: true, force: true });
  }

  private fail(reason: string): void {
    this.state = 'failed';
    this.error = reason;
    if (this.failures === 0) this.log.warn({ model: this.config.id, err: reason }, `AI search uses the bundled model: ${reason}`);
    const delay = this.retryDelaysMs[Math.min(this.failures, this.retryDelaysMs.length - 1)] ?? HOUR;
    this.failures += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.ensure();
    }, delay);
    this.retryTimer.unref();
  }
}

/** The model is off (SMART_SEARCH_MODEL=off): search keeps to the bundled pipeline. */
class NoModel implements SmartModelSource {
  status(): ModelStatus {
    return { model: null, state: 'off', bytesDone: 0, bytesTotal: 0, error: null, dir: null };
  }
  readyDir(): string | null {
    return null;
  }
  ensure(): Promise<void> {
    return Promise.resolve();
  }
}

export type ModelSource = SmartModelSource & { close(): Promise<void> };

export function createModelStore(config: SmartModelConfig | null | undefined, log: Logger, options?: ModelStoreOptions): ModelSource {
  if (!config) return Object.assign(new NoModel(), { close: () => Promise.resolve() });
  return new ModelStore(config, log, options);
}

function describe(err: unknown, dir: string): string {
  if (err instanceof HubError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return `the disk of ${dir} is full (${code})`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `cannot write to ${dir} (${code})`;
  return err instanceof Error ? err.message : String(err);
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}
