import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const detailed = (emailVerified: boolean) => ({ status: 200, data: { ...testUser, emailVerified, createdAt: '2025-01-01T00:00:00.000Z' } });
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

async function openAccount(emailVerified = true) {
  onRequest('GET', '/user-service/user-detailed', detailed(emailVerified));
  const view = renderApp('/settings', { user: testUser });
  await screen.findByText(testUser.email);
  return view;
}

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
});

describe('settings: account', () => {
  it('shows the e-mail, and "Email not verified" with Resend only when unverified', async () => {
    await openAccount(true);
    expect(screen.queryByText('Email not verified')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resend' })).toBeNull();
  });

  it('resends the verification e-mail with its toasts', async () => {
    onRequest('PATCH', '/user-service/resend-verify-email', { status: 200, data: {} });
    await openAccount(false);
    expect(screen.getByText('Email not verified')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Email Verification Resent')).toBeTruthy();
  });

  it('a resend within a minute opens the cooldown dialog', async () => {
    onRequest('PATCH', '/user-service/resend-verify-email', { status: 429, data: errorBody('COOLDOWN') });
    await openAccount(false);
    fireEvent.click(screen.getByRole('button', { name: 'Resend' }));
    await screen.findByRole('dialog', { name: 'Please wait 1 minute before resending' });
    fireEvent.click(screen.getByRole('button', { name: 'Okay' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a failed resend toasts its error', async () => {
    onRequest('PATCH', '/user-service/resend-verify-email', { status: 503, data: errorBody('UNAVAILABLE') });
    await openAccount(false);
    fireEvent.click(screen.getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Error Resending Email Verification')).toBeTruthy();
  });

  it('logout asks "Logout?", then logs out to / and forgets the login flag', async () => {
    onRequest('POST', '/user-service/logout', { status: 200, data: {} });
    const { router, store } = await openAccount();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = screen.getByRole('dialog', { name: 'Logout?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, logout' }));
    await screen.findByRole('heading', { name: 'Login to your account' });
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.state).toEqual({ loggedOut: true });
    expect(requestsTo('GET', '/user-service/user')).toHaveLength(0);
    expect(await screen.findByText('Logged out')).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.hasPreviouslyLoggedIn)).toBeNull();
    expect(store.getState().user.loggedIn).toBe(false);
  });

  it('logout all asks "Logout all?" and calls logout-all', async () => {
    onRequest('POST', '/user-service/logout-all', { status: 200, data: {} });
    await openAccount();
    fireEvent.click(screen.getByRole('button', { name: 'Logout all' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Logout all?' })).getByRole('button', { name: 'Yes, logout all' }));
    await screen.findByRole('heading', { name: 'Login to your account' });
    expect(await screen.findByText('Logged out all')).toBeTruthy();
    expect(requestsTo('POST', '/user-service/logout-all')).toHaveLength(1);
  });

  it('a failed logout toasts its error and stays', async () => {
    onRequest('POST', '/user-service/logout', { status: 500, data: errorBody('INTERNAL') });
    const { router } = await openAccount();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, logout' }));
    expect(await screen.findByText('Error Logging Out')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/settings');
  });

  it('cancelling the confirmation keeps the session', async () => {
    await openAccount();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsTo('POST', '/user-service/logout')).toHaveLength(0);
  });
});

describe('settings: account that fails to load', () => {
  beforeEach(() => {
    onRequest('GET', '/user-service/user-detailed', { status: 500, data: errorBody('INTERNAL') });
  });

  it('asks whether to logout; yes logs out to /', async () => {
    onRequest('POST', '/user-service/logout', { status: 200, data: {} });
    const { router } = renderApp('/settings', { user: testUser });
    const dialog = await screen.findByRole('dialog', { name: 'Error loading user account' }, { timeout: 3000 });
    expect(dialog.textContent).toContain('There was an error loading your account, would you like to logout?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('otherwise goes to /home', async () => {
    const { router } = renderApp('/settings', { user: testUser });
    const dialog = await screen.findByRole('dialog', { name: 'Error loading user account' }, { timeout: 3000 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });
});

describe('settings: change password', () => {
  const submit = () => screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement;

  async function openDialog() {
    await openAccount();
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    return screen.getByRole('dialog', { name: 'Change password' });
  }

  it('submit stays disabled while a field is empty, the new passwords are invalid or differ', async () => {
    await openDialog();
    expect(submit().disabled).toBe(true);
    fill('Current password', 'oldpass');
    fill('New password', 'short');
    fill('Verify new password', 'short');
    expect(submit().disabled).toBe(true);
    expect(screen.getByRole('alert').textContent).toBe('Password must be at least 6 characters');
    fill('New password', 'newpass1');
    fill('Verify new password', 'newpass2');
    expect(screen.getByRole('alert').textContent).toBe('Passwords do not match');
    expect(submit().disabled).toBe(true);
    fill('Verify new password', 'newpass1');
    expect(submit().disabled).toBe(false);
    fill('Current password', '');
    expect(submit().disabled).toBe(true);
  });

  async function submitChange() {
    const dialog = await openDialog();
    fill('Current password', 'oldpass');
    fill('New password', 'newpass1');
    fill('Verify new password', 'newpass1');
    fireEvent.click(submit());
    return dialog;
  }

  it('a wrong current password shows "Incorrect password"', async () => {
    onRequest('PATCH', '/user-service/change-password', { status: 401, data: errorBody('WRONG_PASSWORD') });
    const dialog = await submitChange();
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Incorrect password');
  });

  it('other failures show "Error changing password"', async () => {
    onRequest('PATCH', '/user-service/change-password', { status: 500, data: errorBody('INTERNAL') });
    const dialog = await submitChange();
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Error changing password');
  });

  it('success toasts "Password Changed" and closes the dialog', async () => {
    onRequest('PATCH', '/user-service/change-password', { status: 200, data: {} });
    await submitChange();
    expect(await screen.findByText('Password Changed')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsTo('PATCH', '/user-service/change-password')[0]?.body).toEqual({ oldPassword: 'oldpass', newPassword: 'newpass1' });
  });
});

describe('settings: a session that ended elsewhere', () => {
  it('goes to / with "Login Expired" and returns to settings after login', async () => {
    onRequest('GET', '/user-service/user-detailed', { status: 401, data: errorBody('UNAUTHENTICATED') }, detailed(true));
    onRequest('POST', '/user-service/login', { status: 200, data: { user: testUser } });
    const { router } = renderApp('/settings', { user: testUser });
    const message = await within(await screen.findByRole('form')).findByRole('alert');
    expect(message.textContent).toBe('Login Expired');
    expect(router.state.location.pathname).toBe('/');
    fill('Email address', testUser.email);
    fill('Password', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await screen.findByText(testUser.email);
    expect(router.state.location.pathname).toBe('/settings');
  });
});
