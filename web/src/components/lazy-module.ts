import { useEffect, useState } from 'react';

/** A module loaded on demand: once loaded it is at hand synchronously, so what it draws appears without a fallback frame. */
export interface LazyModule<T> {
  /** Starts loading (once) and settles with the module. */
  load(): Promise<T>;
  /** The module if it has loaded. */
  readonly current: T | undefined;
}

/** Every lazy module defined so far, for `loadDeferredModules`. */
const deferred = new Set<LazyModule<unknown>>();

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  const module: LazyModule<T> = {
    load: () =>
      (loading ??= importer().then(
        (value) => (loaded = value),
        (error: unknown) => {
          // A failed chunk load (a new deployment, a dropped connection) may be retried by the next use.
          loading = undefined;
          throw error;
        },
      )),
    get current() {
      return loaded;
    },
  };
  deferred.add(module);
  return module;
}

/**
 * Loads every lazy module defined so far. A page calls it once it is on screen, so that menus,
 * bars and dropdowns are at hand before anyone opens them, without holding up the first paint.
 */
export async function loadDeferredModules(): Promise<void> {
  await Promise.all([...deferred].map((module) => module.load().catch(() => undefined)));
}

/**
 * The module, loading it after the first paint of the component that asks: undefined until then.
 * What it draws is not needed for that paint, and has loaded by the time it is.
 */
export function useLazyModule<T>(module: LazyModule<T>): T | undefined {
  const [current, setCurrent] = useState(() => module.current);
  useEffect(() => {
    if (current) return;
    let live = true;
    module.load().then(
      (loaded) => live && setCurrent(() => loaded),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [module, current]);
  return current;
}
