import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { deferredReply, errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { mockDrive } from '../../test/drive-fixtures';
import { renderApp, testUser } from '../../test/render-app';

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => document.querySelector<HTMLButtonElement>('form button[type="submit"]')!;
/** The message under the form (toasts are alerts too). */
const findFormMessage = async () => within(await screen.findByRole('form')).findByRole('alert');
const noSession = () => {
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
};

async function login(email = 'ada@example.com', password = 'secret1') {
  await screen.findByRole('heading', { name: 'Login to your account' });
  fill('Email address', email);
  fill('Password', password);
  fireEvent.click(submit());
}

beforeEach(noSession);

/**
 * The session the server keeps once `method url` (a login, a sign-up) has answered: /home checks
 * it, and on a slow machine that check may come before the test has seen the page.
 */
const sessionAfter = (method: string, url: string) => {
  onRequest('GET', '/user-service/user', () =>
    requestsTo(method, url).length > 0 ? { status: 200, data: testUser } : { status: 401, data: errorBody('UNAUTHENTICATED') },
  );
  onRequest('POST', '/user-service/get-token', () =>
    requestsTo(method, url).length > 0 ? { status: 200, data: {} } : { status: 401, data: errorBody('INVALID_TOKEN') },
  );
  mockDrive();
};

describe('authentication screen modes', () => {
  it('switches between login, create and reset with their headings, links and fields', async () => {
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    expect(screen.getByRole('button', { name: 'Forgot?' })).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.queryByLabelText('Verify password')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    screen.getByRole('heading', { name: 'Create an account' });
    expect(screen.getByLabelText('Verify password')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Login' }));

    fireEvent.click(screen.getByRole('button', { name: 'Forgot?' }));
    screen.getByRole('heading', { name: 'Reset Password' });
    expect(screen.getByLabelText('Email address')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Login' }));
    screen.getByRole('heading', { name: 'Login to your account' });
  });

  it('login needs email and password; reset only the email', async () => {
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    expect(submit().disabled).toBe(true);
    fill('Email address', 'ada@example.com');
    expect(submit().disabled).toBe(true);
    fill('Password', 'x');
    expect(submit().disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Forgot?' }));
    expect(submit().disabled).toBe(false);
    fill('Email address', '');
    expect(submit().disabled).toBe(true);
  });
});

describe('login', () => {
  it('disables submit and shows a spinner instead of the logo while the request runs', async () => {
    const pending = deferredReply({ status: 401, data: errorBody('INVALID_CREDENTIALS') });
    onRequest('POST', '/user-service/login', pending.reply);
    renderApp('/');
    await login();
    await screen.findByRole('status', { name: 'Working' });
    expect(submit().disabled).toBe(true);
    pending.release();
    await findFormMessage();
    expect(screen.queryByRole('status', { name: 'Working' })).toBeNull();
  });

  it.each([
    [401, 'Incorrect email or password'],
    [400, 'Incorrect email or password'],
    [429, 'Login Error'],
    [500, 'Login Error'],
  ])('a %i answer shows "%s"', async (status, message) => {
    onRequest('POST', '/user-service/login', { status, data: errorBody(status === 401 ? 'INVALID_CREDENTIALS' : 'INTERNAL') });
    renderApp('/');
    await login();
    expect((await findFormMessage()).textContent).toBe(message);
    expect(submit().disabled).toBe(true);
  });

  it('a disabled account is told so, not that the password is wrong', async () => {
    onRequest('POST', '/user-service/login', { status: 403, data: errorBody('ACCOUNT_DISABLED', 'This account is disabled') });
    renderApp('/');
    await login();
    expect((await findFormMessage()).textContent).toBe('This account is disabled. Ask your administrator to enable it.');
  });

  it('goes to /home and remembers that the user logged in', async () => {
    onRequest('POST', '/user-service/login', { status: 200, data: { user: testUser } });
    sessionAfter('POST', '/user-service/login');
    renderApp('/');
    await login();
    await screen.findByRole('heading', { name: 'Home' });
    expect(localStorage.getItem(STORAGE_KEYS.hasPreviouslyLoggedIn)).toBe('true');
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBe(testUser._id);
    expect(requestsTo('POST', '/user-service/login')[0]?.body).toEqual({ email: 'ada@example.com', password: 'secret1' });
  });

  it('returns to the protected page that sent the visitor to /', async () => {
    onRequest('POST', '/user-service/login', { status: 200, data: { user: testUser } });
    const { router } = renderApp('/folder/abc?x=1');
    await login();
    await screen.findByRole('heading', { name: 'Folder' });
    expect(router.state.location.pathname + router.state.location.search).toBe('/folder/abc?x=1');
  });
});

describe('create account', () => {
  async function create() {
    renderApp('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Create account' }));
    fill('Email address', 'ada@example.com');
    fill('Password', 'secret1');
    fill('Verify password', 'secret1');
    fireEvent.click(submit());
  }

  it.each([
    [409, 'Email Already Exists'],
    [400, 'Validation Error'],
    [500, 'Create Account Error'],
  ])('a %i answer shows "%s"', async (status, message) => {
    onRequest('POST', '/user-service/create', { status, data: errorBody('INTERNAL') });
    await create();
    expect((await findFormMessage()).textContent).toBe(message);
  });

  it('goes to /home and toasts "Email Verification Sent" when the e-mail went out', async () => {
    onRequest('POST', '/user-service/create', { status: 201, data: { user: testUser, emailSent: true } });
    sessionAfter('POST', '/user-service/create');
    await create();
    await screen.findByRole('heading', { name: 'Home' });
    expect(await screen.findByText('Email Verification Sent')).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.hasPreviouslyLoggedIn)).toBe('true');
  });
});

describe('password reset request', () => {
  async function requestReset() {
    renderApp('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Forgot?' }));
    fill('Email address', 'ada@example.com');
    fireEvent.click(submit());
  }

  it('toasts progress and success', async () => {
    onRequest('PATCH', '/user-service/send-password-reset', { status: 200, data: {} });
    await requestReset();
    expect(await screen.findByText('Sending password reset...')).toBeTruthy();
    expect(await screen.findByText('Password Reset Sent')).toBeTruthy();
    expect(requestsTo('PATCH', '/user-service/send-password-reset')[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it.each([
    [404, 'Email does not exist'],
    [403, 'Email Verification Not Enabled'],
    [500, 'Create Account Failed'],
  ])('a %i answer shows "%s" and the error toast', async (status, message) => {
    onRequest('PATCH', '/user-service/send-password-reset', { status, data: errorBody('INTERNAL') });
    await requestReset();
    expect((await findFormMessage()).textContent).toBe(message);
    expect(await screen.findByText('Error Sending Password Reset')).toBeTruthy();
  });

  it('a second request within a minute opens the cooldown dialog', async () => {
    onRequest('PATCH', '/user-service/send-password-reset', { status: 429, data: errorBody('COOLDOWN') });
    await requestReset();
    const dialog = await screen.findByRole('dialog', { name: 'Please wait 1 minute before resending' });
    fireEvent.click(screen.getByRole('button', { name: 'Okay' }));
    expect(dialog.isConnected).toBe(false);
  });
});

describe('session restore', () => {
  it('with the flag: full-page spinner, then "Login Expired" and the flag removed', async () => {
    localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
    const pending = deferredReply({ status: 401, data: errorBody('UNAUTHENTICATED') });
    onRequest('GET', '/user-service/user', pending.reply);
    renderApp('/');
    expect(await screen.findByTestId('full-page-spinner')).toBeTruthy();
    pending.release();
    expect((await findFormMessage()).textContent).toBe('Login Expired');
    expect(localStorage.getItem(STORAGE_KEYS.hasPreviouslyLoggedIn)).toBeNull();
  });

  it('without the flag: the form, and no message when there is no session', async () => {
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    await waitFor(() => expect(requestsTo('POST', '/user-service/get-token')).toHaveLength(1));
    expect(document.querySelector('form [role="alert"]')).toBeNull();
    expect(screen.queryByTestId('full-page-spinner')).toBeNull();
  });

  it('a restored session goes to the remembered page', async () => {
    localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
    onRequest('GET', '/user-service/user', { status: 200, data: testUser });
    const { router, store } = renderApp('/trash');
    await screen.findByRole('heading', { name: 'Trash' });
    expect(router.state.location.pathname).toBe('/trash');
    expect(store.getState().user).toMatchObject({ user: testUser, loggedIn: true });
  });

  it('a restored session without a remembered page goes to /home', async () => {
    onRequest('GET', '/user-service/user', { status: 200, data: testUser });
    renderApp('/');
    await screen.findByRole('heading', { name: 'Home' });
  });
});
