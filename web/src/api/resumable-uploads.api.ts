import type { DetailedError } from 'tus-js-client';
import { getBrowserId } from './browser-id';
import { refreshSession } from './client';

/** tus-js-client is loaded by the first resumable upload, not with the page. */
export const loadTus = () => import('tus-js-client');

/** Files at least this big go through resumable uploads; smaller ones keep the one `POST /file-service/upload`. */
export const RESUMABLE_MIN_BYTES = 20 * 1024 * 1024;
/** Each request carries this much: a dropped connection costs at most one piece. */
export const CHUNK_BYTES = 16 * 1024 * 1024;
/** Back-off between attempts after a network error, a server error or a busy upload. */
export const RETRY_DELAYS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000, 60_000, 60_000, 60_000];
const ENDPOINT = '/file-service/tus';

export interface ResumableUpload {
  /** Stops sending; the server keeps what it has. */
  pause(): Promise<void>;
  /** Sends the rest, from the server's offset. */
  resume(): void;
  /** Stops and deletes what the server holds; `done` then rejects. */
  cancel(): Promise<void>;
  /** Settles when the upload completes (with the new file's id) or fails for good. */
  done: Promise<string | null>;
}

/** A previous upload of this browser that did not finish (the page was closed or reloaded). */
export interface UnfinishedUpload {
  key: string;
  url: string;
  filename: string;
  size: number;
  parent: string;
}

/**
 * Uploads of the same file by the same account into the same folder continue each other; a new
 * version of a file continues only a new version of that same file.
 */
function fingerprint(owner: string, file: File, parent: string, replaces?: string): string {
  return [ownerPrefix(owner), parent, file.name, file.size, file.lastModified, ...(replaces ? [`v${replaces}`] : [])].join('-');
}

function ownerPrefix(owner: string): string {
  return `nimbus-${owner}`;
}

function retryable(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  if (status === 401) {
    // The session's access token expired during a long upload: renew it, then try again.
    void refreshSession().catch(() => undefined);
    return true;
  }
  return status === 0 || status === 409 || status === 423 || status === 429 || status >= 500;
}

/**
 * Uploads a big file in pieces with the tus protocol: network errors are retried with back-off,
 * and an upload interrupted by a reload continues from the server's offset when the same file is
 * picked again for the same folder.
 */
export function startResumableUpload(
  owner: string,
  file: File,
  parent: string,
  onProgress: (fraction: number) => void,
  /** A file id: the upload becomes that file's new content (its current one kept as a version). */
  replaces?: string,
): ResumableUpload {
  let resolve!: (fileId: string | null) => void;
  let reject!: (error: Error) => void;
  const done = new Promise<string | null>((res, rej) => ((resolve = res), (reject = rej)));
  // A pause before the library or the previous upload's offset arrived must still hold.
  let paused = false;
  const ready = loadTus().then((tus) => {
    const upload = new tus.Upload(file, {
      endpoint: ENDPOINT,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: { filename: file.name, filetype: file.type, parent, ...(replaces ? { replaces } : {}) },
      fingerprint: async () => fingerprint(owner, file, parent, replaces),
      removeFingerprintOnSuccess: true,
      onBeforeRequest: (request) => {
        request.setHeader('uuid', getBrowserId());
      },
      onShouldRetry: (error) => retryable(error),
      onProgress: (sent, total) => onProgress(total > 0 ? sent / total : 1),
      onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader('nimbus-file-id') ?? null),
      onError: (error) => reject(error),
    });
    void upload.findPreviousUploads().then(
      (previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        if (!paused) upload.start();
      },
      () => {
        if (!paused) upload.start();
      },
    );
    return upload;
  });
  ready.catch((error: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
  return {
    pause: () => {
      paused = true;
      return ready.then((upload) => upload.abort(false));
    },
    resume: () => {
      paused = false;
      void ready.then((upload) => upload.start());
    },
    cancel: async () => {
      await ready.then((upload) => upload.abort(true)).catch(() => undefined);
      reject(new Error('Upload canceled'));
    },
    done,
  };
}

/** Whether this browser holds any tus entry of the account: most page loads need no tus at all. */
function remembersUploadsOf(owner: string): boolean {
  const mine = `tus::${ownerPrefix(owner)}-`;
  try {
    for (let i = 0; i < localStorage.length; i++) if (localStorage.key(i)?.startsWith(mine)) return true;
  } catch {
    // No usable storage (a sandboxed frame): tus could not remember uploads either.
  }
  return false;
}

/**
 * Unfinished uploads of this account this browser remembers, to offer them for resumption; another
 * account signed in on the same browser never sees their names.
 */
export async function findUnfinishedUploads(owner: string): Promise<UnfinishedUpload[]> {
  if (!remembersUploadsOf(owner)) return [];
  const tus = await loadTus();
  if (!tus.canStoreURLs) return [];
  const mine = `tus::${ownerPrefix(owner)}-`;
  const all = await tus.defaultOptions.urlStorage.findAllUploads();
  return all.flatMap((u) =>
    u.urlStorageKey.startsWith(mine) && u.uploadUrl && u.metadata.filename
      ? [{ key: u.urlStorageKey, url: u.uploadUrl, filename: u.metadata.filename, size: u.size ?? 0, parent: u.metadata.parent ?? '/' }]
      : [],
  );
}

/** Forgets an unfinished upload and deletes what the server holds of it. */
export async function discardUnfinishedUpload(upload: UnfinishedUpload): Promise<void> {
  const tus = await loadTus();
  await tus.Upload.terminate(upload.url, {
    onBeforeRequest: (request) => {
      request.setHeader('uuid', getBrowserId());
    },
    retryDelays: [],
  }).catch(() => undefined);
  await tus.defaultOptions.urlStorage.removeUpload(upload.key);
}
