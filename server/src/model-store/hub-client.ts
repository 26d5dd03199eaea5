import { open, stat, truncate } from 'node:fs/promises';
import { z } from 'zod';
import type { FileDigests } from './file-digest.js';

/** A file of a model repository as the hub lists it. */
export interface HubFile {
  path: string;
  size: number;
  /** sha256 of the content, for files kept in LFS (the weights); null for files git keeps itself. */
  lfsSha256: string | null;
  /** Git's blob id of the file (of the LFS pointer for LFS files). */
  gitOid: string;
}

/** A failure talking to the hub, with a message an operator can act on. */
export class HubError extends Error {
  constructor(
    message: string,
    /** Worth another try at once with the bytes kept: the transfer broke off, the answer was fine. */
    readonly interrupted = false,
  ) {
    super(message);
    this.name = 'HubError';
  }
}

export interface HubClientOptions {
  /** Until the answer's headers arrive. */
  timeoutMs?: number;
  /** Longest wait for the next bytes of a download before it counts as broken off. */
  stallMs?: number;
  /** Tries of one file, each resuming where the last broke off. */
  attempts?: number;
}

const treeEntry = z.looseObject({
  type: z.string(),
  path: z.string().min(1),
  size: z.number().int().nonnegative(),
  oid: z.string().regex(/^[0-9a-f]{40}$/),
  lfs: z.looseObject({ oid: z.string().regex(/^[0-9a-f]{64}$/), size: z.number().int().nonnegative() }).optional(),
});
const treePage = z.array(treeEntry);

/** Tree listings are a few kilobytes; a mirror answering megabytes is wrong. */
const MAX_TREE_PAGES = 100;

/**
 * The model hub's HTTP API, or a mirror laid out like it (MODELS_URL may carry a path prefix): lists a
 * repository's files with their sizes and hashes, downloads one following redirects (LFS files move
 * to a CDN) and resumes a partial file with `Range`.
 */
export class HubClient {
  private readonly timeoutMs: number;
  private readonly stallMs: number;
  private readonly attempts: number;

  constructor(
    readonly hubUrl: string,
    options: HubClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.stallMs = options.stallMs ?? 60_000;
    this.attempts = options.attempts ?? 3;
  }

  /** Every file of `repo` at `revision`, folders left out. */
  async listFiles(repo: string, revision: string, signal?: AbortSignal): Promise<HubFile[]> {
    const files: HubFile[] = [];
    let next: string | null = `${this.hubUrl}/api/models/${segments(repo)}/tree/${encodeURIComponent(revision)}?recursive=true`;
    for (let page = 0; next !== null; page++) {
      if (page === MAX_TREE_PAGES) throw new HubError(`${this.host()} listed more than ${MAX_TREE_PAGES} pages of files for ${repo}`);
      const response = await this.get(next, {}, signal);
      if (!response.ok) {
        await response.body?.cancel();
        throw new HubError(answerError(response.status, `${repo}@${revision}`, this.host()));
      }
      const parsed = treePage.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new HubError(`${this.host()} answered a file list for ${repo}@${revision} that is not the hub's`);
      for (const entry of parsed.data) {
        if (entry.type !== 'file') continue;
        files.push({ path: entry.path, size: entry.lfs?.size ?? entry.size, lfsSha256: entry.lfs?.oid ?? null, gitOid: entry.oid });
      }
      next = nextLink(response.headers.get('link'), response.url);
    }
    return files;
  }

  /**
   * Brings `dest` to the hub's `file`, resuming from the bytes already in it. `onBytes` hears each
   * received chunk's size (negative when a partial file had to start over). Does not verify: see `mismatch`.
   */
  async download(
    repo: string,
    revision: string,
    file: HubFile,
    dest: string,
    onBytes: (delta: number) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const url = `${this.hubUrl}/${segments(repo)}/resolve/${encodeURIComponent(revision)}/${segments(file.path)}`;
    for (let attempt = 1; ; attempt++) {
      let have = await sizeOf(dest);
      if (have > file.size) {
        await truncate(dest, 0);
        onBytes(-have);
        have = 0;
      }
      if (have === file.size && have > 0) return;
      try {
        await this.fetchInto(url, file, dest, have, onBytes, signal);
        return;
      } catch (err) {
        if (!(err instanceof HubError && err.interrupted) || attempt >= this.attempts || signal?.aborted) throw err;
      }
    }
  }

  private async fetchInto(
    url: string,
    file: HubFile,
    dest: string,
    from: number,
    onBytes: (delta: number) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const stall = new AbortController();
    const response = await this.get(
      url,
      from > 0 ? { range: `bytes=${from}-` } : {},
      AbortSignal.any([stall.signal, ...(signal ? [signal] : [])]),
    );
    if (response.status === 416 && from === file.size) return;
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new HubError(answerError(response.status, file.path, this.host()));
    }
    const resumed = response.status === 206;
    if (from > 0 && !resumed) onBytes(-from);
    let received = resumed ? from : 0;
    // Each chunk is on disk before it counts: a transfer that breaks off leaves exactly what arrived, to resume from.
    const handle = await open(dest, resumed ? 'a' : 'w');
    let timer = setTimeout(() => stall.abort(), this.stallMs);
    const reader = response.body.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        const chunk = next.value;
        clearTimeout(timer);
        timer = setTimeout(() => stall.abort(), this.stallMs);
        received += chunk.length;
        if (received > file.size) throw new HubError(`${file.path} is larger than the ${file.size} bytes the hub listed`);
        await handle.write(chunk);
        onBytes(chunk.length);
      }
    } catch (err) {
      // Ends the connection, whose remaining bytes nobody reads.
      await reader.cancel().catch(() => undefined);
      if (err instanceof HubError || isDiskError(err) || signal?.aborted) throw err;
      throw new HubError(`the download of ${file.path} broke off after ${received} of ${file.size} bytes`, true);
    } finally {
      clearTimeout(timer);
      await handle.close();
    }
    if (received < file.size) throw new HubError(`the download of ${file.path} broke off after ${received} of ${file.size} bytes`, true);
  }

  /** The timeout covers the wait for the headers only: the signal given to fetch also ends the body. */
  private async get(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const headersLate = new AbortController();
    const timer = setTimeout(() => headersLate.abort(new HubError('no answer in time')), this.timeoutMs);
    try {
      return await fetch(url, { headers, redirect: 'follow', signal: AbortSignal.any([headersLate.signal, ...(signal ? [signal] : [])]) });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new HubError(`cannot reach ${this.host()}: ${headersLate.signal.aborted ? 'no answer in time' : reasonOf(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private host(): string {
    return new URL(this.hubUrl).host;
  }
}

/** What is wrong with a downloaded file compared with the hub's listing, or null when it matches. */
export function mismatch(file: HubFile, digests: FileDigests): string | null {
  if (digests.size !== file.size) return `${file.path} has ${digests.size} bytes, the hub lists ${file.size}`;
  if (file.lfsSha256 !== null && digests.sha256 !== file.lfsSha256)
    return `${file.path} does not match its sha256 (expected ${file.lfsSha256}, got ${digests.sha256})`;
  if (file.lfsSha256 === null && digests.gitSha1 !== file.gitOid)
    return `${file.path} does not match its git blob id (expected ${file.gitOid}, got ${digests.gitSha1})`;
  return null;
}

function segments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function answerError(status: number, what: string, host: string): string {
  if (status === 401 || status === 404) return `${host} has no ${what} (HTTP ${status}): check SMART_SEARCH_MODEL and MODELS_URL`;
  return `${host} answered HTTP ${status} for ${what}`;
}

/** The `rel="next"` target of a Link header, absolute. */
function nextLink(header: string | null, base: string): string | null {
  for (const part of header?.split(',') ?? []) {
    const match = /<([^>]+)>\s*;.*\brel="?next"?/.exec(part);
    if (match) return new URL(match[1]!, base).toString();
  }
  return null;
}

/** undici hides the system error (ECONNREFUSED, ENOTFOUND…) in `cause`. */
function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'no answer in time';
  return err instanceof Error ? err.message : String(err);
}

function isDiskError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EACCES' || code === 'EROFS' || code === 'EIO';
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}
