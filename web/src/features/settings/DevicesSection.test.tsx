import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const here = {
  id: 's1',
  browser: 'Chrome 156',
  system: 'Linux',
  clientAddress: '192.0.2.10',
  signInMethod: 'password',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastUsedAt: '2026-01-05T11:00:00.000Z',
  current: true,
};
const phone = {
  id: 's2',
  browser: 'Safari 18',
  system: 'iOS 18',
  clientAddress: '198.51.100.7',
  signInMethod: 'passkey',
  createdAt: '2026-01-03T10:00:00.000Z',
  lastUsedAt: '2026-01-04T09:00:00.000Z',
  current: false,
};
const old = { ...phone, id: 's3', browser: null, system: null, clientAddress: null, signInMethod: null };
const rclone = { id: 'p1', name: 'Laptop (rclone)', createdAt: '2026-01-02T10:00:00.000Z', lastUsedAt: '2026-01-03T11:00:00.000Z' };

async function openDevices(sessions: unknown[] = [here, phone], appPasswords: unknown[] = [rclone]) {
  onRequest('GET', '/user-service/sessions', { status: 200, data: sessions });
  onRequest('GET', '/user-service/app-passwords', { status: 200, data: appPasswords });
  renderApp('/settings', { user: testUser });
  fireEvent.click(await screen.findByRole('button', { name: 'Devices' }));
  await screen.findByRole('heading', { name: 'Devices' });
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

describe('settings: devices', () => {
  it('lists the sessions with browser, system, address, method and "This device", then app passwords with last use', async () => {
    await openDevices();
    expect(await screen.findByText('Chrome 156 on Linux')).toBeTruthy();
    expect(screen.getByText('Safari 18 on iOS 18')).toBeTruthy();
    expect(screen.getAllByText('This device')).toHaveLength(1);
    expect(screen.getByText(/192\.0\.2\.10 · Signed in with password · First seen/)).toBeTruthy();
    expect(screen.getByText(/198\.51\.100\.7 · Signed in with passkey/)).toBeTruthy();
    expect(screen.getAllByText(/Last seen/)).toHaveLength(2);
    expect(await screen.findByText('Laptop (rclone)')).toBeTruthy();
    expect(screen.getByText(/App password · Created .* · Last used/)).toBeTruthy();
    // Read-only here: app passwords are revoked under App passwords.
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
  });

  it('names a session whose user agent told nothing as an unknown browser', async () => {
    await openDevices([here, old], []);
    expect(await screen.findByText('Unknown browser')).toBeTruthy();
    expect(await screen.findByText('No app passwords.')).toBeTruthy();
  });

  it('signs out another session only after confirmation, and lists the sessions again', async () => {
    onRequest('DELETE', '/user-service/sessions/s2', { status: 204, data: '' });
    await openDevices();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out Safari 18 on iOS 18' }));
    let dialog = screen.getByRole('dialog', { name: 'Sign out this session?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requestsTo('DELETE', '/user-service/sessions/s2')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Sign out Safari 18 on iOS 18' }));
    dialog = screen.getByRole('dialog', { name: 'Sign out this session?' });
    expect(within(dialog).getByText(/Safari 18 on iOS 18 will be signed out at once/)).toBeTruthy();
    onRequest('GET', '/user-service/sessions', { status: 200, data: [here] });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(requestsTo('DELETE', '/user-service/sessions/s2')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Safari 18 on iOS 18')).toBeNull());
  });

  it('signs out this device as logout does', async () => {
    onRequest('POST', '/user-service/logout', { status: 200, data: { message: 'Logged out' } });
    await openDevices();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out Chrome 156 on Linux (this device)' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out this session?' });
    expect(within(dialog).getByText(/you will be signed out here/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(requestsTo('POST', '/user-service/logout')).toHaveLength(1));
    expect(requestsTo('DELETE', '/user-service/sessions/s1')).toHaveLength(0);
  });

  it('says when a session could not be signed out', async () => {
    onRequest('DELETE', '/user-service/sessions/s2', { status: 404, data: errorBody('SESSION_NOT_FOUND') });
    await openDevices();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out Safari 18 on iOS 18' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Could not sign out the session')).toBeTruthy();
  });

  it('says when the sessions could not be loaded', async () => {
    onRequest('GET', '/user-service/sessions', { status: 500, data: errorBody('INTERNAL') });
    onRequest('GET', '/user-service/app-passwords', { status: 200, data: [] });
    renderApp('/settings', { user: testUser });
    fireEvent.click(await screen.findByRole('button', { name: 'Devices' }));
    expect(await screen.findByText('Could not load your sessions')).toBeTruthy();
  });
});
