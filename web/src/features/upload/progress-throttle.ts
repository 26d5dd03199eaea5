/**
 * Passes progress (0-100) on at most once per `intervalMs`, the latest value winning; 100 is never
 * passed on, since a finished upload is shown by its completed state instead.
 */
export function createProgressThrottle(intervalMs: number, emit: (progress: number) => void) {
  let lastEmit = -Infinity;
  let pending: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    timer = null;
    if (pending === null) return;
    lastEmit = Date.now();
    emit(pending);
    pending = null;
  };

  return {
    push(progress: number) {
      if (progress >= 100) return;
      pending = progress;
      const wait = lastEmit + intervalMs - Date.now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    /** Drops a value still waiting to be passed on. */
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
