import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const GB = 1024 ** 3;

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
  onRequest('GET', '/user-service/user-detailed', { status: 200, data: { ...testUser, createdAt: '2025-01-01T00:00:00.000Z' } });
  onRequest('GET', '/invitation-service/invitations', { status: 403, data: errorBody('INVITE_NOT_ALLOWED', 'no') });
});

async function openStorage() {
  renderApp('/settings', { user: testUser });
  fireEvent.click(await screen.findByRole('button', { name: 'Storage' }));
  await screen.findByRole('heading', { name: 'Storage' });
}

describe('settings: storage', () => {
  it('shows what is used against the quota, split by files, trash and versions', async () => {
    onRequest('GET', '/user-service/storage', {
      status: 200,
      data: { usedBytes: 3.2 * GB, quotaBytes: 10 * GB, bytes: { files: 2.5 * GB, trash: 0.5 * GB, versions: 0.2 * GB } },
    });
    await openStorage();
    expect(await screen.findByText('3.2 GB of 10 GB used')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Storage: 3.2 GB of 10 GB used' })).toBeTruthy();
    expect(screen.getByText('Files: 2.5 GB')).toBeTruthy();
    expect(screen.getByText('Trash: 512 MB')).toBeTruthy();
    expect(screen.getByText('Versions: 204.8 MB')).toBeTruthy();
    expect(screen.queryByText('No quota')).toBeNull();
  });

  it('says "No quota" when there is none', async () => {
    onRequest('GET', '/user-service/storage', {
      status: 200,
      data: { usedBytes: GB, quotaBytes: null, bytes: { files: GB, trash: 0, versions: 0 } },
    });
    await openStorage();
    expect(await screen.findByText('No quota')).toBeTruthy();
    expect(screen.getByText('1 GB used')).toBeTruthy();
  });

  it('offers no invitations when the list of them is refused', async () => {
    onRequest('GET', '/user-service/storage', {
      status: 200,
      data: { usedBytes: 0, quotaBytes: null, bytes: { files: 0, trash: 0, versions: 0 } },
    });
    await openStorage();
    await screen.findByText('No quota');
    await waitFor(() => expect(requestsTo('GET', '/invitation-service/invitations').length).toBeGreaterThan(0));
    // Give the refusal time to reach the screen.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Invite people' })).toBeNull();
  });

  it('lets a member who may invite send an invitation and see theirs', async () => {
    onRequest('GET', '/user-service/storage', {
      status: 200,
      data: { usedBytes: 0, quotaBytes: null, bytes: { files: 0, trash: 0, versions: 0 } },
    });
    onRequest('GET', '/invitation-service/invitations', { status: 200, data: [] });
    onRequest('POST', '/invitation-service/invitations', { status: 403, data: errorBody('INVITE_NOT_ALLOWED', 'no') });
    await openStorage();
    fireEvent.click(await screen.findByRole('button', { name: 'Invite people' }));
    expect(screen.getByText('No invitations yet.')).toBeTruthy();
    const dialog = screen.getByRole('dialog', { name: 'Invite someone' });
    fireEvent.change(within(dialog).getByLabelText('E-mail address of the person to invite'), { target: { value: 'eve@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Only an administrator can invite people on this server.')).toBeTruthy();
  });
});
