import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancelled, installFakeWebAuthn } from '../../test/fake-webauthn';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const laptop = { id: 'k1', name: 'Laptop', createdAt: '2026-01-02T10:00:00.000Z', lastUsedAt: '2026-01-03T11:00:00.000Z', backedUp: false };
const yubikey = { id: 'k2', name: 'YubiKey', createdAt: '2026-01-04T10:00:00.000Z', lastUsedAt: null, backedUp: false };
const registrationOptions = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { name: 'Nimbus', id: 'localhost' },
  user: { id: 'dXNlci0x', name: testUser.email, displayName: '' },
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
  excludeCredentials: [],
  authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
};

let webauthn: ReturnType<typeof installFakeWebAuthn>;

async function openPasskeys(...lists: unknown[][]) {
  onRequest('GET', '/passkey-service/passkeys', ...(lists.length ? lists : [[laptop, yubikey]]).map((data) => ({ status: 200, data })));
  renderApp('/settings', { user: testUser });
  fireEvent.click(await screen.findByRole('button', { name: 'Passkeys' }));
  await screen.findByRole('heading', { name: 'Passkeys' });
}

beforeEach(() => {
  webauthn = installFakeWebAuthn();
  localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
  onRequest('GET', '/user-service/user-detailed', {
    status: 200,
    data: { ...testUser, emailVerified: true, createdAt: '2025-01-01T00:00:00.000Z' },
  });
});
afterEach(() => webauthn.uninstall());

describe('settings: passkeys', () => {
  it('lists passkeys with when they were added and last used', async () => {
    await openPasskeys();
    expect(await screen.findByText('Laptop')).toBeTruthy();
    expect(screen.getByText('YubiKey')).toBeTruthy();
    expect(screen.getByText(/Never used/)).toBeTruthy();
    expect(screen.getByText(/Last used/)).toBeTruthy();
  });

  it('says when there are none', async () => {
    await openPasskeys([]);
    expect(await screen.findByText('No passkeys yet.')).toBeTruthy();
  });

  it('adds a named passkey through the browser prompt and lists it', async () => {
    onRequest('POST', '/passkey-service/registration/options', { status: 200, data: registrationOptions });
    onRequest('POST', '/passkey-service/registration/verify', { status: 201, data: laptop });
    await openPasskeys([], [laptop]);
    const add = screen.getByRole('button', { name: 'Add passkey' });
    expect(add.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('New passkey name'), { target: { value: '  Laptop ' } });
    expect(add.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'correct horse' } });
    fireEvent.click(add);
    expect(await screen.findByText('Laptop')).toBeTruthy();
    expect(webauthn.create).toHaveBeenCalledTimes(1);
    const publicKey = webauthn.create.mock.calls[0]![0].publicKey!;
    expect(publicKey.rp).toEqual({ name: 'Nimbus', id: 'localhost' });
    const body = requestsTo('POST', '/passkey-service/registration/verify')[0]!.body as { name: string; response: { id: string } };
    expect(body.name).toBe('Laptop');
    expect(body.response.id).toBe('Y3JlZC0x');
    expect(requestsTo('POST', '/passkey-service/registration/options')[0]!.body).toEqual({ password: 'correct horse' });
    expect((screen.getByLabelText('New passkey name') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });

  it('says so when the prompt is cancelled, and registers nothing', async () => {
    onRequest('POST', '/passkey-service/registration/options', { status: 200, data: registrationOptions });
    webauthn.create.mockRejectedValueOnce(cancelled());
    await openPasskeys([]);
    fireEvent.change(screen.getByLabelText('New passkey name'), { target: { value: 'Phone' } });
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect((await screen.findByRole('alert')).textContent).toContain('not created');
    expect(requestsTo('POST', '/passkey-service/registration/verify')).toHaveLength(0);
  });

  it('shows the server refusing more passkeys', async () => {
    onRequest('POST', '/passkey-service/registration/options', {
      status: 409,
      data: { ...errorBody('CONFLICT'), error: 'An account can have at most 20 passkeys' },
    });
    await openPasskeys([laptop]);
    fireEvent.change(screen.getByLabelText('New passkey name'), { target: { value: 'One more' } });
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect((await screen.findByRole('alert')).textContent).toContain('at most 20 passkeys');
    expect(webauthn.create).not.toHaveBeenCalled();
  });

  it('says when the password is wrong or tried too often, and opens no browser prompt', async () => {
    onRequest(
      'POST',
      '/passkey-service/registration/options',
      { status: 401, data: errorBody('INVALID_CREDENTIALS') },
      { status: 429, data: errorBody('LOGIN_THROTTLED') },
    );
    await openPasskeys([]);
    fireEvent.change(screen.getByLabelText('New passkey name'), { target: { value: 'Phone' } });
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'wrong horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect((await screen.findByRole('alert')).textContent).toContain('password is not right');
    fireEvent.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Too many wrong tries');
    expect(webauthn.create).not.toHaveBeenCalled();
  });

  it('with two-factor on, takes a code instead of the password', async () => {
    onRequest('GET', '/two-factor-service/status', { status: 200, data: { enabled: true, recoveryCodesLeft: 10, required: false } });
    onRequest(
      'POST',
      '/passkey-service/registration/options',
      { status: 401, data: errorBody('INVALID_CODE') },
      { status: 200, data: registrationOptions },
    );
    onRequest('POST', '/passkey-service/registration/verify', { status: 201, data: laptop });
    await openPasskeys([], [laptop]);
    fireEvent.click(await screen.findByRole('button', { name: 'Use a two-factor code instead' }));
    expect(screen.queryByLabelText('Current password')).toBeNull();
    fireEvent.change(screen.getByLabelText('New passkey name'), { target: { value: 'Laptop' } });
    fireEvent.change(screen.getByLabelText('Two-factor code'), { target: { value: '000 000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect((await screen.findByRole('alert')).textContent).toContain('code is not right');
    fireEvent.change(screen.getByLabelText('Two-factor code'), { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect(await screen.findByText('Laptop')).toBeTruthy();
    expect(requestsTo('POST', '/passkey-service/registration/options').map((r) => r.body)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
  });

  it('asks an account without a password (single sign-on) for nothing', async () => {
    onRequest('GET', '/user-service/user-detailed', {
      status: 200,
      data: { ...testUser, emailVerified: true, createdAt: '2025-01-01T00:00:00.000Z', hasPassword: false },
    });
    onRequest('POST', '/passkey-service/registration/options', { status: 200, data: registrationOptions });
    onRequest('POST', '/passkey-service/registration/verify', { status: 201, data: laptop });
    await openPasskeys([], [laptop]);
    await waitFor(() => expect(screen.queryByLabelText('Current password')).toBeNull());
    fireEvent.change(screen.getByLabelText('New passkey name'), { target: { value: 'Laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect(await screen.findByText('Laptop')).toBeTruthy();
    expect(requestsTo('POST', '/passkey-service/registration/options')[0]!.body).toEqual({});
  });

  it('renames one', async () => {
    onRequest('PATCH', '/passkey-service/passkeys/k1', { status: 200, data: { ...laptop, name: 'Work laptop' } });
    await openPasskeys([laptop], [{ ...laptop, name: 'Work laptop' }]);
    fireEvent.click(await screen.findByRole('button', { name: 'Rename Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename “Laptop”' });
    fireEvent.change(within(dialog).getByLabelText('Passkey name'), { target: { value: 'Work laptop ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo('PATCH', '/passkey-service/passkeys/k1')[0]!.body).toEqual({ name: 'Work laptop' });
    expect(await screen.findByText('Work laptop')).toBeTruthy();
  });

  it('removes one after confirmation', async () => {
    onRequest('DELETE', '/passkey-service/passkeys/k2', { status: 204 });
    await openPasskeys([laptop, yubikey], [laptop]);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove YubiKey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove passkey?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByText('YubiKey')).toBeNull());
    expect(requestsTo('DELETE', '/passkey-service/passkeys/k2')).toHaveLength(1);
  });

  it('offers no adding in a browser without WebAuthn', async () => {
    webauthn.uninstall();
    await openPasskeys([]);
    expect(screen.getByText('This browser cannot make passkeys.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add passkey' })).toBeNull();
  });
});
