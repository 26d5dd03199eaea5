import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyModule, loadDeferredModules, useLazyModule } from './lazy-module';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('lazy modules', () => {
  it('loads once, then has the module at hand synchronously', async () => {
    const importer = vi.fn(async () => ({ answer: 42 }));
    const module = lazyModule(importer);
    expect(module.current).toBeUndefined();
    await Promise.all([module.load(), module.load()]);
    expect(module.current).toEqual({ answer: 42 });
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed load', async () => {
    const importer = vi.fn().mockRejectedValueOnce(new Error('chunk missing')).mockResolvedValueOnce({ ok: true });
    const module = lazyModule(importer as () => Promise<{ ok: boolean }>);
    await expect(module.load()).rejects.toThrow('chunk missing');
    await expect(module.load()).resolves.toEqual({ ok: true });
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('loadDeferredModules loads every module defined so far, ignoring failures', async () => {
    const first = lazyModule(async () => 'first');
    lazyModule(() => Promise.reject(new Error('offline')));
    await loadDeferredModules();
    expect(first.current).toBe('first');
  });

  it('useLazyModule draws nothing until the module arrives, then draws it; a loaded one at once', async () => {
    const gate = deferred<{ Part: () => React.JSX.Element }>();
    const module = lazyModule(() => gate.promise);
    function Host() {
      const Part = useLazyModule(module)?.Part;
      return Part ? <Part /> : <p>waiting</p>;
    }
    const view = render(<Host />);
    expect(screen.getByText('waiting')).toBeTruthy();
    await act(async () => gate.resolve({ Part: () => <p>part</p> }));
    expect(screen.getByText('part')).toBeTruthy();
    view.unmount();

    render(<Host />);
    expect(screen.getByText('part')).toBeTruthy();
  });
});
