import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const laptop = { id: 'p1', name: 'Laptop (rclone)', createdAt: '2026-01-02T10:00:00.000Z', lastUsedAt: '2026-01-03T11:00:00.000Z' };
const phone = { id: 'p2', name: 'Phone', createdAt: '2026-01-04T10:00:00.000Z', lastUsedAt: null };

async function openAppPasswords(list: unknown[] = [laptop, phone]) {
  onRequest('GET', '/user-service/app-passwords', { status: 200, data: list });
  renderApp('/settings', { user: testUser });
  fireEvent.click(await screen.findByRole('button', { name: 'App passwords' }));
  await screen.findByRole('heading', { name: 'App passwords' });
}

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
  onRequest('GET', '/user-service/user-detailed', {
    status: 200,
    data: { ...testUser, emailVerified: true, createdAt: '2025-01-01T00:00:00.000Z' },
  });
});

describe('settings: app passwords', () => {
  it('lists app passwords with their last use, and the WebDAV URL and user name', async () => {
    await openAppPasswords();
    expect(await screen.findByText('Laptop (rclone)')).toBeTruthy();
    expect(screen.getByText(/Never used/)).toBeTruthy();
    expect(screen.getByText(/Last used/)).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/dav/`)).toBeTruthy();
    expect(await screen.findByText(testUser.email)).toBeTruthy();
  });

  it('says when there are none', async () => {
    await openAppPasswords([]);
    expect(await screen.findByText('No app passwords yet.')).toBeTruthy();
  });

  it('creates one and shows its password once, with copy buttons', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(() => Promise.resolve()) }, configurable: true });
    onRequest('POST', '/user-service/app-passwords', {
      status: 201,
      data: { id: 'p3', name: 'Tablet', password: 'secret-shown-once-1234', createdAt: '2026-01-05T10:00:00.000Z' },
    });
    await openAppPasswords([]);
    const create = screen.getByRole('button', { name: 'Create' });
    expect(create.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('New app password name'), { target: { value: '  Tablet ' } });
    fireEvent.click(create);
    const dialog = await screen.findByRole('dialog', { name: 'App password for “Tablet”' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Password').value).toBe('secret-shown-once-1234');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy password' }));
    await within(dialog).findByText('Copied');
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith('secret-shown-once-1234');
    expect(requestsTo('POST', '/user-service/app-passwords')[0]!.body).toEqual({ name: 'Tablet' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText('secret-shown-once-1234')).toBeNull();
  });

  it('shows why a creation failed', async () => {
    onRequest('POST', '/user-service/app-passwords', {
      status: 409,
      data: errorBody('CONFLICT', 'An account can have at most 50 app passwords'),
    });
    await openAppPasswords([]);
    fireEvent.change(screen.getByLabelText('New app password name'), { target: { value: 'One more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('An account can have at most 50 app passwords')).toBeTruthy();
  });

  it('revokes only after confirmation', async () => {
    onRequest('DELETE', '/user-service/app-passwords/p1', { status: 204, data: '' });
    await openAppPasswords();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Laptop (rclone)' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke app password?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requestsTo('DELETE', '/user-service/app-passwords/p1')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke Laptop (rclone)' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Revoke app password?' })).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(requestsTo('DELETE', '/user-service/app-passwords/p1')).toHaveLength(1));
  });
});
