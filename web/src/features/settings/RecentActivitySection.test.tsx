import { STORAGE_KEYS, type ActivityEventDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import { describeActivity, describeClient } from './activity-labels';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;

function event(id: string, type: ActivityEventDto['type'], day: number, extra: Partial<ActivityEventDto> = {}): ActivityEventDto {
  return { id, type, at: at(day), clientAddress: null, userAgent: null, details: null, ...extra };
}

const signIn = event('e1', 'sign-in', 9, { clientAddress: '203.0.113.7', userAgent: FIREFOX });
const failed = event('e2', 'sign-in-failed', 8, { clientAddress: '198.51.100.4', userAgent: 'curl/8.5.0' });
const appPassword = event('e3', 'app-password-created', 7, { details: { name: 'Laptop (rclone)' } });
const older = event('e4', 'file-link-public', 2, { details: { name: 'report.pdf', itemType: 'file' } });

async function openActivity() {
  renderApp('/settings', { user: testUser });
  fireEvent.click(await screen.findByRole('button', { name: 'Recent activity' }));
  await screen.findByRole('heading', { name: 'Recent activity' });
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

describe('settings: recent activity', () => {
  it('lists events newest first with readable labels, dates, addresses and browsers, and pages on', async () => {
    onRequest('GET', '/user-service/activity', (request) =>
      request.params.cursor === 'next-1'
        ? { status: 200, data: { events: [older], nextCursor: null } }
        : { status: 200, data: { events: [signIn, failed, appPassword], nextCursor: 'next-1' } },
    );
    await openActivity();
    const list = await screen.findByRole('list', { name: 'Recent activity' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('p')!.textContent)).toEqual([
      'Signed in',
      'Failed sign-in attempt (wrong password)',
      'App password “Laptop (rclone)” created',
    ]);
    expect(within(rows[0]!).getByText(/203\.0\.113\.7 · Firefox on Linux/)).toBeTruthy();
    expect(within(rows[1]!).getByText(/198\.51\.100\.4 · curl/)).toBeTruthy();
    expect(rows[0]!.querySelector('time')!.getAttribute('dateTime')).toBe(signIn.at);
    expect(rows[0]!.querySelector('time')!.textContent).toContain('2026');
    expect(requestsTo('GET', '/user-service/activity')[0]!.params).toEqual({ limit: 50 });

    fireEvent.click(screen.getByRole('button', { name: 'Show older' }));
    expect(await within(list).findByText('Public link made for “report.pdf”')).toBeTruthy();
    expect(requestsTo('GET', '/user-service/activity')[1]!.params).toEqual({ limit: 50, cursor: 'next-1' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull());
  });

  it('says when there is nothing yet', async () => {
    onRequest('GET', '/user-service/activity', { status: 200, data: { events: [], nextCursor: null } });
    await openActivity();
    expect(await screen.findByText('No activity yet.')).toBeTruthy();
  });

  it('says when the log cannot be loaded', async () => {
    onRequest('GET', '/user-service/activity', { status: 500, data: errorBody('INTERNAL') });
    await openActivity();
    expect(await screen.findByText('Could not load your recent activity')).toBeTruthy();
  });
});

describe('activity labels', () => {
  it('has a sentence for every kind of event', () => {
    const named = (type: ActivityEventDto['type'], details: ActivityEventDto['details']) =>
      describeActivity(event('x', type, 1, { details }));
    expect(named('password-changed', null)).toBe('Password changed');
    expect(named('password-reset', null)).toBe('Password reset through an e-mailed link');
    expect(named('logout-all', null)).toBe('Signed out of all sessions');
    expect(named('session-signed-out', { name: 'Firefox 133 on Windows 10' })).toBe(
      'Signed out a session (Firefox 133 on Windows 10) from Devices',
    );
    expect(named('app-password-revoked', { name: 'Phone' })).toBe('App password “Phone” revoked');
    expect(named('file-link-one-time', { name: 'a.txt', itemType: 'file' })).toBe('One-time link made for “a.txt”');
    expect(named('file-link-removed', { name: 'a.txt', itemType: 'file' })).toBe('Link removed from “a.txt”');
    expect(named('share-link-created', { name: 'Inbox', itemType: 'folder', kind: 'drop' })).toBe(
      'File drop link created for folder “Inbox”',
    );
    expect(named('share-link-updated', { name: 'a.txt', itemType: 'file', kind: 'view' })).toBe('Share link changed for “a.txt”');
    expect(named('share-link-revoked', { itemType: 'file', kind: 'view' })).toBe('Share link revoked for an item');
  });

  it('tells a failed WebDAV sign-in and a WebDAV lock-out from a failed sign-in on the web', () => {
    expect(describeActivity(failed)).toBe('Failed sign-in attempt (wrong password)');
    expect(describeActivity({ ...failed, details: { kind: 'webdav' } })).toBe('Failed WebDAV sign-in attempt (wrong app password)');
    expect(describeActivity({ ...failed, details: { kind: 'webdav-throttled' } })).toBe(
      'WebDAV sign-ins refused for a while after too many failed attempts',
    );
  });

  it('names the browser and system of a user agent, or the client', () => {
    expect(describeClient(FIREFOX)).toBe('Firefox on Linux');
    expect(
      describeClient(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0',
      ),
    ).toBe('Edge on Windows');
    expect(describeClient('rclone/v1.66.0')).toBe('rclone');
    expect(describeClient(null)).toBeNull();
  });
});
