import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockDrive } from '../../test/drive-fixtures';
import { cancelled, installFakeWebAuthn } from '../../test/fake-webauthn';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const requestOptions = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'preferred', timeout: 300000 };
const passkeyButton = () => screen.queryByRole('button', { name: 'Sign in with a passkey' });

let webauthn: ReturnType<typeof installFakeWebAuthn> | null;

beforeEach(() => {
  webauthn = installFakeWebAuthn();
  onRequest('GET', '/user-service/user', () =>
    requestsTo('POST', '/passkey-service/sign-in/verify').length > 0
      ? { status: 200, data: testUser }
      : { status: 401, data: errorBody('UNAUTHENTICATED') },
  );
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
  mockDrive();
});
afterEach(() => webauthn?.uninstall());

describe('sign in with a passkey', () => {
  it('asks the browser for a passkey of this site, with no e-mail, and goes home', async () => {
    onRequest('POST', '/passkey-service/sign-in/options', { status: 200, data: requestOptions });
    onRequest('POST', '/passkey-service/sign-in/verify', { status: 200, data: { user: testUser } });
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    fireEvent.click(passkeyButton()!);
    await screen.findByRole('heading', { name: 'Home' });
    expect(webauthn!.get).toHaveBeenCalledTimes(1);
    expect(webauthn!.get.mock.calls[0]![0].publicKey!.allowCredentials ?? []).toEqual([]);
    const body = requestsTo('POST', '/passkey-service/sign-in/verify')[0]!.body as { response: { id: string; response: object } };
    expect(body.response.id).toBe('Y3JlZC0x');
    expect(body.response.response).toHaveProperty('signature');
    expect(requestsTo('POST', '/user-service/login')).toHaveLength(0);
  });

  it('says when the server refuses the passkey, and stays on the login screen', async () => {
    onRequest('POST', '/passkey-service/sign-in/options', { status: 200, data: requestOptions });
    onRequest('POST', '/passkey-service/sign-in/verify', { status: 401, data: errorBody('PASSKEY_REFUSED') });
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    fireEvent.click(passkeyButton()!);
    const form = await screen.findByRole('form');
    expect((await within(form).findByRole('alert')).textContent).toContain('This passkey was not accepted');
    expect(screen.getByRole('heading', { name: 'Login to your account' })).toBeTruthy();
  });

  it('says when the browser prompt was cancelled, and sends nothing', async () => {
    onRequest('POST', '/passkey-service/sign-in/options', { status: 200, data: requestOptions });
    webauthn!.get.mockRejectedValueOnce(cancelled());
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    fireEvent.click(passkeyButton()!);
    expect((await screen.findByRole('alert')).textContent).toContain('No passkey was used');
    expect(requestsTo('POST', '/passkey-service/sign-in/verify')).toHaveLength(0);
  });

  it('is not offered on the sign-up screen', async () => {
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    expect(passkeyButton()).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /create account/i }));
    await screen.findByRole('heading', { name: /create/i });
    expect(passkeyButton()).toBeNull();
  });

  it('is hidden where the browser has no WebAuthn', async () => {
    webauthn!.uninstall();
    webauthn = null;
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    expect(passkeyButton()).toBeNull();
  });

  it('finishes a password sign-in with a passkey when the second step offers one', async () => {
    onRequest('POST', '/user-service/login', {
      status: 202,
      data: { secondFactor: { ticket: 't-1', methods: ['totp', 'recovery', 'passkey'] } },
    });
    onRequest('POST', '/passkey-service/second-factor/options', {
      status: 200,
      data: { ...requestOptions, allowCredentials: [{ id: 'Y3JlZC0x', type: 'public-key' }] },
    });
    onRequest('POST', '/passkey-service/second-factor/verify', { status: 200, data: { user: testUser } });
    onRequest('GET', '/user-service/user', () =>
      requestsTo('POST', '/passkey-service/second-factor/verify').length > 0
        ? { status: 200, data: testUser }
        : { status: 401, data: errorBody('UNAUTHENTICATED') },
    );
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret1' } });
    fireEvent.click(document.querySelector<HTMLButtonElement>('form button[type="submit"]')!);
    fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    await screen.findByRole('heading', { name: 'Home' });
    expect(requestsTo('POST', '/passkey-service/second-factor/options')[0]!.body).toEqual({ ticket: 't-1' });
    const body = requestsTo('POST', '/passkey-service/second-factor/verify')[0]!.body as { ticket: string; response: { id: string } };
    expect(body.ticket).toBe('t-1');
    expect(body.response.id).toBe('Y3JlZC0x');
    expect(webauthn!.get.mock.calls[0]![0].publicKey!.allowCredentials).toHaveLength(1);
  });

  it('offers no passkey in the second step of an account without one', async () => {
    onRequest('POST', '/user-service/login', { status: 202, data: { secondFactor: { ticket: 't-2', methods: ['totp', 'recovery'] } } });
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret1' } });
    fireEvent.click(document.querySelector<HTMLButtonElement>('form button[type="submit"]')!);
    await screen.findByRole('heading', { name: 'Two-factor sign-in' });
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
  });
});
