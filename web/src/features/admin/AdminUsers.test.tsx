import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody, onRequest, requestsTo, type RecordedRequest } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';
import { adminUser, adminUserRow, invitation, page } from './admin-fixtures';

const bob = adminUserRow();
const dan = adminUserRow({ id: 'u2', email: 'dan@example.com', status: 'disabled', role: 'admin', twoFactor: true, quotaBytes: null });

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
  onRequest('GET', '/invitation-service/invitations', { status: 200, data: [] });
  onRequest('GET', '/admin-service/users', { status: 200, data: page([bob, dan]) });
});

async function openAdmin() {
  const view = renderApp('/admin', { user: adminUser });
  await screen.findByRole('table', { name: 'Accounts' });
  return view;
}

const lastUsersQuery = () => requestsTo('GET', '/admin-service/users').at(-1)!.params;
const rowOf = (email: string) => screen.getByText(email).closest('tr')!;

describe('admin entry', () => {
  it('shows Admin in the side menu only to an administrator', async () => {
    renderApp('/home', { user: adminUser });
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
  });

  it('hides it from other accounts', async () => {
    renderApp('/home', { user: { ...testUser, role: 'user' } });
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(menu).queryByRole('link', { name: 'Admin' })).toBeNull();
  });

  it('tells a non-administrator opening /admin that it is not for them, and asks the server nothing', async () => {
    renderApp('/admin', { user: { ...testUser, role: 'user' } });
    expect(await screen.findByRole('heading', { name: 'Only an administrator can open this page' })).toBeTruthy();
    expect(requestsTo('GET', '/admin-service/users')).toHaveLength(0);
  });

  it('says the same when the server refuses (ADMIN_ONLY)', async () => {
    onRequest('GET', '/admin-service/users', { status: 403, data: errorBody('ADMIN_ONLY', 'Administrators only') });
    renderApp('/admin', { user: adminUser });
    expect(await screen.findByText('Only an administrator can open this page')).toBeTruthy();
    expect(screen.queryByText('ADMIN_ONLY')).toBeNull();
  });
});

describe('admin users table', () => {
  it('lists accounts with their figures, status and two-factor, pending invitations on top', async () => {
    onRequest('GET', '/invitation-service/invitations', {
      status: 200,
      data: [invitation(), invitation({ id: 'i2', email: 'gone@example.com', status: 'accepted' })],
    });
    await openAdmin();
    const rows = within(screen.getByRole('table', { name: 'Accounts' })).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[1]!).getByText('carol@example.com')).toBeTruthy();
    expect(within(rows[1]!).getByText('Invited')).toBeTruthy();
    expect(screen.queryByText('gone@example.com')).toBeNull();
    const bobRow = rowOf('bob@example.com');
    expect(within(bobRow).getByText('512 MB of 1 GB')).toBeTruthy();
    expect(within(bobRow).getByRole('progressbar', { name: 'Storage used' }).getAttribute('aria-valuenow')).toBe('50');
    expect(within(bobRow).getByText('12')).toBeTruthy();
    expect(within(bobRow).getByText('Active')).toBeTruthy();
    expect(within(bobRow).getByText('Off')).toBeTruthy();
    const danRow = rowOf('dan@example.com');
    expect(within(danRow).getByText('Disabled')).toBeTruthy();
    expect(within(danRow).getByText('On')).toBeTruthy();
    expect(within(danRow).queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('2 accounts')).toBeTruthy();
  });

  it('asks the server with the search, the sort and the order', async () => {
    await openAdmin();
    expect(lastUsersQuery()).toEqual({ sort: 'createdAt', order: 'asc', offset: 0, limit: 50 });
    fireEvent.change(screen.getByLabelText('Search accounts'), { target: { value: ' bob ' } });
    await waitFor(() => expect(lastUsersQuery()).toMatchObject({ search: 'bob', offset: 0 }));
    fireEvent.click(screen.getByRole('button', { name: 'Files' }));
    await waitFor(() => expect(lastUsersQuery()).toMatchObject({ search: 'bob', sort: 'files', order: 'asc' }));
    expect(screen.getByRole('columnheader', { name: /Files/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: /Files/ }));
    await waitFor(() => expect(lastUsersQuery()).toMatchObject({ sort: 'files', order: 'desc' }));
  });

  it('pages with Next and Previous', async () => {
    onRequest('GET', '/admin-service/users', (request: RecordedRequest) => ({
      status: 200,
      data: page([adminUserRow({ email: `page${String(request.params.offset)}@example.com` })], 120, Number(request.params.offset)),
    }));
    await openAdmin();
    expect(screen.getByText('120 accounts')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('page50@example.com')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('page100@example.com')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('page50@example.com')).toBeTruthy();
  });
});

describe('admin user actions', () => {
  const choose = (email: string, action: string) => {
    fireEvent.click(screen.getByRole('button', { name: `Actions for ${email}` }));
    fireEvent.click(within(screen.getByRole('menu', { name: `Actions for ${email}` })).getByRole('menuitem', { name: action }));
  };

  it('disables and enables an account', async () => {
    onRequest('PATCH', '/admin-service/users/u1', { status: 200, data: { ...bob, status: 'disabled' } });
    onRequest('PATCH', '/admin-service/users/u2', { status: 200, data: { ...dan, status: 'active' } });
    await openAdmin();
    choose('bob@example.com', 'Disable account');
    await waitFor(() => expect(requestsTo('PATCH', '/admin-service/users/u1')[0]?.body).toEqual({ disabled: true }));
    choose('dan@example.com', 'Enable account');
    await waitFor(() => expect(requestsTo('PATCH', '/admin-service/users/u2')[0]?.body).toEqual({ disabled: false }));
  });

  it('makes an administrator, and says in words why the last one cannot be removed', async () => {
    onRequest('PATCH', '/admin-service/users/u1', { status: 200, data: { ...bob, role: 'admin' } });
    onRequest('PATCH', '/admin-service/users/u2', { status: 409, data: errorBody('LAST_ADMIN', 'last admin') });
    await openAdmin();
    choose('bob@example.com', 'Make administrator');
    await waitFor(() => expect(requestsTo('PATCH', '/admin-service/users/u1')[0]?.body).toEqual({ role: 'admin' }));
    choose('dan@example.com', 'Remove administrator');
    expect(await screen.findByText(/This is the last administrator/)).toBeTruthy();
    expect(screen.queryByText('LAST_ADMIN')).toBeNull();
  });

  it('sets a quota in GB, and puts one back on the default', async () => {
    onRequest('PATCH', '/admin-service/users/u1', { status: 200, data: bob });
    await openAdmin();
    choose('bob@example.com', 'Set quota');
    let dialog = screen.getByRole('dialog', { name: 'Storage quota of bob@example.com' });
    fireEvent.click(within(dialog).getByLabelText('Its own quota'));
    fireEvent.change(within(dialog).getByLabelText('Quota size'), { target: { value: '2.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save quota' }));
    await waitFor(() => expect(requestsTo('PATCH', '/admin-service/users/u1')[0]?.body).toEqual({ quotaBytes: 2.5 * 1024 ** 3 }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    choose('bob@example.com', 'Set quota');
    dialog = screen.getByRole('dialog', { name: 'Storage quota of bob@example.com' });
    fireEvent.click(within(dialog).getByLabelText(/default quota/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save quota' }));
    await waitFor(() => expect(requestsTo('PATCH', '/admin-service/users/u1')[1]?.body).toEqual({ quotaBytes: null }));
  });

  it('deletes an account only once its e-mail is typed exactly', async () => {
    onRequest('DELETE', '/admin-service/users/u1', { status: 202, data: '' });
    await openAdmin();
    choose('bob@example.com', 'Delete account');
    const dialog = screen.getByRole('dialog', { name: 'Delete account?' });
    const remove = within(dialog).getByRole('button', { name: 'Delete account' });
    const field = within(dialog).getByLabelText("Type the account's e-mail address to confirm");
    expect(remove.hasAttribute('disabled')).toBe(true);
    fireEvent.change(field, { target: { value: 'BOB@example.com' } });
    expect(remove.hasAttribute('disabled')).toBe(true);
    fireEvent.change(field, { target: { value: 'bob@example.com' } });
    expect(remove.hasAttribute('disabled')).toBe(false);
    fireEvent.click(remove);
    await waitFor(() => expect(requestsTo('DELETE', '/admin-service/users/u1')[0]?.body).toEqual({ confirmEmail: 'bob@example.com' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the password reset link to copy when no mail went out', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(() => Promise.resolve()) }, configurable: true });
    onRequest('POST', '/admin-service/users/u1/password-reset', {
      status: 200,
      data: { emailSent: false, link: 'http://nimbus.test/reset-password/abc' },
    });
    await openAdmin();
    choose('bob@example.com', 'Send password reset');
    const dialog = await screen.findByRole('dialog', { name: 'Password reset' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Password reset link').value).toBe('http://nimbus.test/reset-password/abc');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy password reset link' }));
    await waitFor(() => expect(navigator.clipboard.writeText).toHaveBeenCalledWith('http://nimbus.test/reset-password/abc'));
  });

  it('says the reset was mailed when it was', async () => {
    onRequest('POST', '/admin-service/users/u1/password-reset', { status: 200, data: { emailSent: true, link: null } });
    await openAdmin();
    choose('bob@example.com', 'Send password reset');
    const dialog = await screen.findByRole('dialog', { name: 'Password reset' });
    expect(within(dialog).getByText('A password reset link was sent to bob@example.com.')).toBeTruthy();
  });

  it('turns two-factor sign-in off for an account that has it, and offers it for no other', async () => {
    onRequest('POST', '/admin-service/users/u2/two-factor-reset', { status: 200, data: { ...dan, twoFactor: false } });
    await openAdmin();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for bob@example.com' }));
    expect(
      within(screen.getByRole('menu', { name: 'Actions for bob@example.com' })).queryByRole('menuitem', {
        name: 'Turn off two-factor sign-in',
      }),
    ).toBeNull();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    choose('dan@example.com', 'Turn off two-factor sign-in');
    await waitFor(() => expect(requestsTo('POST', '/admin-service/users/u2/two-factor-reset')).toHaveLength(1));
    expect(await screen.findByText(/dan@example.com can sign in with the password alone/)).toBeTruthy();
  });
});
