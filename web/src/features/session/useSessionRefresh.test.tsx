import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onRequest, requestsTo } from '../../test/http-mock';
import { testUser } from '../../test/render-app';
import { createAppStore } from '../../state/store';
import { setUser } from '../../state/user.slice';
import { useSessionRefresh } from './useSessionRefresh';

const TWENTY_MINUTES = 20 * 60_000;

function renderRefresh(loggedIn: boolean) {
  const store = createAppStore();
  if (loggedIn) store.dispatch(setUser(testUser));
  const queryClient = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={store}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </Provider>
  );
  renderHook(() => useSessionRefresh(), { wrapper });
  return store;
}

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  vi.useFakeTimers();
  onRequest('POST', '/user-service/get-token', { status: 200, data: {} });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useSessionRefresh', () => {
  it('refreshes every 20 minutes while signed in', async () => {
    const store = renderRefresh(true);
    await act(() => vi.advanceTimersByTimeAsync(TWENTY_MINUTES - 1));
    expect(requestsTo('POST', '/user-service/get-token')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(requestsTo('POST', '/user-service/get-token')).toHaveLength(1);
    expect(store.getState().user.lastRefreshed).toBeGreaterThan(0);
    await act(() => vi.advanceTimersByTimeAsync(TWENTY_MINUTES));
    expect(requestsTo('POST', '/user-service/get-token')).toHaveLength(2);
  });

  it('refreshes when the tab becomes visible', async () => {
    renderRefresh(true);
    await act(async () => setVisibility('hidden'));
    expect(requestsTo('POST', '/user-service/get-token')).toHaveLength(0);
    await act(async () => setVisibility('visible'));
    expect(requestsTo('POST', '/user-service/get-token')).toHaveLength(1);
  });

  it('does nothing while signed out', async () => {
    renderRefresh(false);
    await act(async () => setVisibility('visible'));
    await act(() => vi.advanceTimersByTimeAsync(TWENTY_MINUTES));
    expect(requestsTo('POST', '/user-service/get-token')).toHaveLength(0);
  });
});

describe('an ended session', () => {
  it('signs the tab out when the server refuses to refresh', async () => {
    onRequest('POST', '/user-service/get-token', { status: 401, data: { error: 'x', code: 'INVALID_TOKEN', requestId: 't' } });
    const store = renderRefresh(true);
    await act(async () => setVisibility('visible'));
    expect(store.getState().user.loggedIn).toBe(false);
  });

  it('keeps the session through other refresh failures', async () => {
    onRequest('POST', '/user-service/get-token', { status: 503, data: { error: 'x', code: 'UNAVAILABLE', requestId: 't' } });
    const store = renderRefresh(true);
    await act(async () => setVisibility('visible'));
    expect(store.getState().user.loggedIn).toBe(true);
  });
});
