import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestsTo } from '../../test/http-mock';
import { elapse, useFakeClock } from '../../test/clock';
import { renderApp, testUser } from '../../test/render-app';
import { makeFile, mockDrive } from '../../test/drive-fixtures';

/** An IntersectionObserver whose sentinel visibility the test sets; like a real one it reports the current state on observe(). */
class FakeObserver {
  static instances: FakeObserver[] = [];
  private ratio = 0;
  private observing = false;
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    FakeObserver.instances.push(this);
  }
  observe() {
    this.observing = true;
    queueMicrotask(() => this.report());
  }
  disconnect() {
    this.observing = false;
  }
  unobserve() {
    this.observing = false;
  }
  takeRecords() {
    return [];
  }
  private report() {
    if (!this.observing) return;
    const entry = { isIntersecting: this.ratio > 0, intersectionRatio: this.ratio } as IntersectionObserverEntry;
    this.callback([entry], this as unknown as IntersectionObserver);
  }
  show(ratio: number) {
    this.ratio = ratio;
    this.report();
  }
}

beforeEach(() => {
  FakeObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const files = Array.from({ length: 120 }, (_, i) => makeFile(`f-${String(i).padStart(3, '0')}.txt`));

describe('infinite paging', () => {
  it('fetches the next page once per page while the sentinel is 10 % visible, and stops after a short page', async () => {
    useFakeClock();
    mockDrive({
      files: (request) => {
        const after = request.params.startAtId as string | undefined;
        const start = after ? files.findIndex((f) => f._id === after) + 1 : 0;
        return files.slice(start, start + 50);
      },
    });
    renderApp('/home', { user: testUser });
    await screen.findByRole('option', { name: 'f-000.txt' });
    const observer = FakeObserver.instances.at(-1)!;
    expect(observer.options?.threshold).toBe(0.1);

    act(() => observer.show(0.05));
    expect(requestsTo('GET', '/file-service/list')).toHaveLength(1);
    // The sentinel comes into view once and stays there: each page that arrives asks for exactly one more,
    // until a short page arrives.
    act(() => observer.show(0.1));
    await vi.waitFor(() => expect(screen.getByTestId('list-end').parentElement?.getAttribute('data-file-count')).toBe('120'));
    await elapse(50);
    const calls = requestsTo('GET', '/file-service/list');
    expect(calls).toHaveLength(3);
    expect(calls[1]?.params).toMatchObject({
      startAt: 'true',
      startAtDate: files[49]!.uploadDate,
      startAtName: files[49]!.filename,
      startAtId: files[49]!._id,
    });
    expect(calls[2]?.params).toMatchObject({ startAtId: files[99]!._id });
  });
});
