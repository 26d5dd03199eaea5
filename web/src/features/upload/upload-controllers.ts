import type { ResumableUpload } from '../../api/resumable-uploads.api';

/** The AbortController of each running upload, by upload id; kept out of Redux because it is not data. */
const controllers = new Map<string, AbortController>();
/** Resumable uploads, by upload id: they pause and resume as well. */
const resumables = new Map<string, ResumableUpload>();

export function registerResumable(id: string, upload: ResumableUpload): void {
  resumables.set(id, upload);
}

export function resumableOf(id: string): ResumableUpload | undefined {
  return resumables.get(id);
}

export function registerUpload(id: string): AbortSignal {
  const controller = new AbortController();
  controllers.set(id, controller);
  return controller.signal;
}

export function releaseUpload(id: string): void {
  controllers.delete(id);
  resumables.delete(id);
}

/** Aborts the request of one upload; the server keeps nothing of an aborted upload. */
export function abortUpload(id: string): void {
  controllers.get(id)?.abort();
  controllers.delete(id);
  void resumables.get(id)?.cancel();
  resumables.delete(id);
}

export function abortAllUploads(): void {
  for (const controller of controllers.values()) controller.abort();
  controllers.clear();
  for (const upload of resumables.values()) void upload.cancel();
  resumables.clear();
}
