import { STORAGE_KEYS, type AdminOverviewDto, type ServerSettingsDto } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp } from '../../test/render-app';
import { adminUser, invitation, page } from './admin-fixtures';

const settings: ServerSettingsDto = { signup: 'open', defaultQuotaBytes: null, trashRetentionDays: 30, usersMayInvite: false };

const overview: AdminOverviewDto = {
  accounts: { total: 7, active: 5, disabled: 1, admins: 2, invitationsPending: 3 },
  files: 1234,
  folders: 56,
  bytes: { files: 5 * 1024 ** 3, trash: 300 * 1024 ** 2, thumbnails: 20 * 1024 ** 2, versions: 1024 ** 3, renditions: 40 * 1024 ** 2 },
  disk: { freeBytes: 100 * 1024 ** 3, totalBytes: 500 * 1024 ** 3 },
  jobs: { queued: 4, running: 1, failed: 2 },
  scrub: null,
  model: { name: 'Xenova/clip-vit-base-patch32', state: 'downloading', bytesDone: 43, bytesTotal: 100, error: null },
  version: '1.8.0',
};

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
  onRequest('GET', '/invitation-service/invitations', { status: 200, data: [] });
  onRequest('GET', '/admin-service/users', { status: 200, data: page([]) });
  onRequest('GET', '/admin-service/settings', { status: 200, data: settings });
  onRequest('GET', '/admin-service/overview', { status: 200, data: overview });
});

async function openSection(name: string) {
  renderApp('/admin', { user: adminUser });
  const nav = await screen.findByRole('navigation', { name: 'Admin' });
  fireEvent.click(within(nav).getByRole('button', { name }));
  await screen.findByRole('heading', { name, level: 1 });
}

describe('admin: invite', () => {
  it('shows the link with a Copy button when no mail went out', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(() => Promise.resolve()) }, configurable: true });
    const link = 'http://nimbus.test/invite/tok123';
    onRequest('POST', '/invitation-service/invitations', {
      status: 201,
      data: { invitation: invitation({ email: 'eve@example.com' }), emailSent: false, link },
    });
    renderApp('/admin', { user: adminUser });
    fireEvent.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite someone' });
    const send = within(dialog).getByRole('button', { name: 'Send invitation' });
    fireEvent.change(within(dialog).getByLabelText('E-mail address of the person to invite'), { target: { value: 'nope' } });
    fireEvent.click(send);
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(requestsTo('POST', '/invitation-service/invitations')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('E-mail address of the person to invite'), { target: { value: ' eve@example.com ' } });
    fireEvent.click(send);
    const done = await screen.findByRole('dialog', { name: 'Invitation created' });
    expect(requestsTo('POST', '/invitation-service/invitations')[0]!.body).toEqual({ email: 'eve@example.com' });
    expect(within(done).getByLabelText<HTMLInputElement>('Invitation link').value).toBe(link);
    fireEvent.click(within(done).getByRole('button', { name: 'Copy invitation link' }));
    await waitFor(() => expect(navigator.clipboard.writeText).toHaveBeenCalledWith(link));
  });

  it('says the invitation was mailed, and explains a refusal in words', async () => {
    onRequest(
      'POST',
      '/invitation-service/invitations',
      { status: 409, data: errorBody('EMAIL_EXISTS', 'exists') },
      { status: 201, data: { invitation: invitation({ email: 'eve@example.com' }), emailSent: true, link: null } },
    );
    renderApp('/admin', { user: adminUser });
    fireEvent.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite someone' });
    fireEvent.change(within(dialog).getByLabelText('E-mail address of the person to invite'), { target: { value: 'eve@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('An account with this e-mail address already exists.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('E-mail address of the person to invite'), { target: { value: 'eve@example.co' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    const done = await screen.findByRole('dialog', { name: 'Invitation created' });
    expect(within(done).getByText('An invitation was sent to eve@example.com.')).toBeTruthy();
  });
});

describe('admin: invitations', () => {
  it('lists invitations with their status, resends and revokes', async () => {
    onRequest('GET', '/invitation-service/invitations', {
      status: 200,
      data: [invitation(), invitation({ id: 'i2', email: 'old@example.com', status: 'accepted' })],
    });
    onRequest('POST', '/invitation-service/invitations/i1/resend', {
      status: 200,
      data: { invitation: invitation(), emailSent: false, link: 'http://nimbus.test/invite/new' },
    });
    onRequest('DELETE', '/invitation-service/invitations/i1', { status: 204, data: '' });
    await openSection('Invitations');
    const list = await screen.findByRole('list', { name: 'Invitations' });
    expect(within(list).getByText(/Pending/)).toBeTruthy();
    expect(within(list).getByText(/Accepted/)).toBeTruthy();
    expect(within(list).queryByRole('button', { name: 'Resend invitation to old@example.com' })).toBeNull();
    fireEvent.click(within(list).getByRole('button', { name: 'Resend invitation to carol@example.com' }));
    const resent = await screen.findByRole('dialog', { name: 'Invitation resent' });
    expect(within(resent).getByLabelText<HTMLInputElement>('Invitation link').value).toBe('http://nimbus.test/invite/new');
    fireEvent.click(within(resent).getByRole('button', { name: 'Done' }));
    fireEvent.click(within(list).getByRole('button', { name: 'Revoke invitation to carol@example.com' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Revoke invitation?' })).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(requestsTo('DELETE', '/invitation-service/invitations/i1')).toHaveLength(1));
  });
});

describe('admin: server settings', () => {
  it('saves sign-up, default quota, trash retention and invitations by members, and confirms', async () => {
    onRequest('PATCH', '/admin-service/settings', (request) => ({ status: 200, data: { ...settings, ...(request.body as object) } }));
    await openSection('Server settings');
    const form = await screen.findByRole('form', { name: 'Server settings' });
    fireEvent.change(within(form).getByLabelText('Sign-up'), { target: { value: 'invite' } });
    fireEvent.click(within(form).getByLabelText('No quota'));
    fireEvent.change(within(form).getByLabelText('Default quota'), { target: { value: '10' } });
    fireEvent.change(within(form).getByLabelText('Trash retention days'), { target: { value: '14' } });
    fireEvent.click(within(form).getByLabelText('Members may invite people'));
    fireEvent.click(within(form).getByLabelText('Require two-factor sign-in'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(requestsTo('PATCH', '/admin-service/settings')[0]?.body).toEqual({
        signup: 'invite',
        defaultQuotaBytes: 10 * 1024 ** 3,
        trashRetentionDays: 14,
        usersMayInvite: true,
        requireTwoFactor: true,
      }),
    );
    expect(await screen.findByText('Server settings saved')).toBeTruthy();
  });

  it('refuses a retention that is not a number of days, without asking the server', async () => {
    await openSection('Server settings');
    const form = await screen.findByRole('form', { name: 'Server settings' });
    fireEvent.change(within(form).getByLabelText('Trash retention days'), { target: { value: '-3' } });
    expect(within(form).getByRole('button', { name: 'Save settings' }).hasAttribute('disabled')).toBe(true);
    expect(within(form).getByRole('alert').textContent).toContain('whole number of days');
  });
});

describe('admin: overview', () => {
  it('shows accounts, files, bytes by kind, free disk, jobs, scrub and version', async () => {
    await openSection('Overview');
    const accounts = await screen.findByRole('region', { name: 'Accounts' });
    expect(within(accounts).getByText('7')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Files' })).getByText('1234')).toBeTruthy();
    const storage = screen.getByRole('region', { name: 'Storage' });
    expect(within(storage).getByText('5 GB')).toBeTruthy();
    expect(within(storage).getByText('300 MB')).toBeTruthy();
    expect(within(storage).getByText('100 GB of 500 GB')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Jobs' })).getByText('2')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Integrity scrub' })).getByText('Off')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Server' })).getByText('1.8.0')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'AI search' })).getByText('clip-vit-base-patch32 — downloading 43 %')).toBeTruthy();
  });
});
