/** The AbortController of each running upload, by upload id; kept out of Redux because it is not data. */
const controllers = new Map<string, AbortController>();

export function registerUpload(id: string): AbortSignal {
  const controller = new AbortController();
  controllers.set(id, controller);
  return controller.signal;
}

export function releaseUpload(id: string): void {
  controllers.delete(id);
}

/** Aborts the request of one upload; the server keeps nothing of an aborted upload. */
export function abortUpload(id: string): void {
  controllers.get(id)?.abort();
  controllers.delete(id);
}

export function abortAllUploads(): void {
  for (const controller of controllers.values()) controller.abort();
  controllers.clear();
}
