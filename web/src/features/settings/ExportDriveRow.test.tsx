import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onRequest, requests } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

let clicked: string[];

beforeEach(() => {
  clicked = [];
  // jsdom does not navigate; record where the download link pointed instead.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this.getAttribute('href') ?? '');
  });
  onRequest('GET', '/user-service/user-detailed', { status: 200, data: { ...testUser, createdAt: '2025-01-01T00:00:00.000Z' } });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('export my drive', () => {
  it('refreshes the session, then downloads the zip of the whole drive', async () => {
    onRequest('POST', '/user-service/get-token', { status: 200, data: {} });
    renderApp('/settings', { user: testUser });
    expect(await screen.findByText('A zip of all your files and folders, with their names. The trash is left out.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Export my drive' }));
    await waitFor(() => expect(clicked).toEqual(['/user-service/export']));
    expect(requests.some((r) => r.method === 'POST' && r.url === '/user-service/get-token')).toBe(true);
  });

  it('does not start a download when the session has ended, and goes back to sign-in', async () => {
    onRequest('POST', '/user-service/get-token', { status: 401, data: { error: 'Sign in again', code: 'INVALID_TOKEN', requestId: 'r' } });
    renderApp('/settings', { user: testUser });
    fireEvent.click(await screen.findByRole('button', { name: 'Export my drive' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/user-service/get-token')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Export my drive' })).toBeNull());
    expect(clicked).toEqual([]);
  });
});
