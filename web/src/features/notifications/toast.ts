import type { Id, ToastContent, ToastOptions, UpdateOptions } from 'react-toastify';

export type Toastify = typeof import('react-toastify');
type Run = (library: Toastify) => void;

/**
 * react-toastify is not needed to draw a page, so it is loaded by the first toast: until then the
 * calls wait here, in order, and run once `ToastHost` has put the container on screen (a toast
 * updated before its container exists would be lost). Ids are handed out as react-toastify does
 * ("1", "2", ...), so callers get one at once.
 */
let loading: Promise<Toastify> | undefined;
let loaded: Toastify | undefined;
let mounted: Toastify | undefined;
let waiting: Run[] = [];
let nextId = 1;
const listeners = new Set<(library: Toastify) => void>();

function load(): Promise<Toastify> {
  loading ??= import('react-toastify').then((library) => {
    loaded = library;
    listeners.forEach((listener) => listener(library));
    return library;
  });
  return loading;
}

function withToastify(run: Run): void {
  if (mounted) {
    run(mounted);
    return;
  }
  waiting.push(run);
  void load();
}

function show(kind: 'success' | 'error' | 'loading', content: ToastContent, options?: ToastOptions): Id {
  const toastId = options?.toastId ?? String(nextId++);
  withToastify((library) => library.toast[kind](content, { ...options, toastId }));
  return toastId;
}

/** The part of react-toastify's `toast` the app uses. */
export const toast = {
  success: (content: ToastContent, options?: ToastOptions): Id => show('success', content, options),
  error: (content: ToastContent, options?: ToastOptions): Id => show('error', content, options),
  loading: (content: ToastContent, options?: ToastOptions): Id => show('loading', content, options),
  update: (id: Id, options: UpdateOptions): void => withToastify((library) => library.toast.update(id, options)),
  /** Before the first toast there is nothing to dismiss, and no reason to load the library. */
  dismiss: (id?: Id): void => {
    if (mounted || loading) withToastify((library) => library.toast.dismiss(id));
  },
};

/** The library, if a toast has loaded it already. */
export const loadedToastify = (): Toastify | undefined => loaded;

/** Calls `listener` with the library once a toast has loaded it; returns the unsubscribe. */
export function onToastifyLoaded(listener: (library: Toastify) => void): () => void {
  let live = true;
  const call = (library: Toastify) => {
    if (live) listener(library);
  };
  if (loading) void loading.then(call);
  else listeners.add(call);
  return () => {
    live = false;
    listeners.delete(call);
  };
}

/** The container is on screen (or gone, with `undefined`): run what waited for it. */
export function setToastContainerMounted(library: Toastify | undefined): void {
  mounted = library;
  if (!library) return;
  const runs = waiting;
  waiting = [];
  runs.forEach((run) => run(library));
}
