import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const CODE_LABEL = 'Enter the 6-digit code from your authenticator app';
const codes = Array.from({ length: 10 }, (_, i) => `code${i}-xxxxx`);

async function openSecurity(status: { enabled: boolean; recoveryCodesLeft: number; required: boolean }) {
  onRequest('GET', '/two-factor-service/status', { status: 200, data: status });
  renderApp('/settings', { user: testUser });
  fireEvent.click(await screen.findByRole('button', { name: 'Security' }));
  await screen.findByRole('heading', { name: 'Security' });
}

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
});

describe('settings: security (two-factor)', () => {
  it('turns it on with the QR code and the key shown, confirms with a code, and shows the ten recovery codes once', async () => {
    onRequest('POST', '/two-factor-service/setup', {
      status: 200,
      data: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Nimbus:ada?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' },
    });
    onRequest('POST', '/two-factor-service/enable', (request) =>
      (request.body as { code: string }).code === '111111'
        ? { status: 401, data: errorBody('INVALID_CODE') }
        : { status: 200, data: { recoveryCodes: codes } },
    );
    await openSecurity({ enabled: false, recoveryCodesLeft: 0, required: false });
    expect(await screen.findByText('Off')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(CODE_LABEL), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/That code is not right/);
    onRequest('GET', '/two-factor-service/status', { status: 200, data: { enabled: true, recoveryCodesLeft: 10, required: false } });
    fireEvent.change(screen.getByLabelText(CODE_LABEL), { target: { value: '222222' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(10);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText(/On · 10 recovery codes left/)).toBeTruthy();
    expect(screen.queryByText('code0-xxxxx')).toBeNull();
  });

  it('makes new recovery codes for a code, and turns it off with a code', async () => {
    onRequest('POST', '/two-factor-service/recovery-codes', { status: 200, data: { recoveryCodes: codes } });
    onRequest('POST', '/two-factor-service/disable', { status: 200, data: { message: 'off' } });
    await openSecurity({ enabled: true, recoveryCodesLeft: 3, required: false });
    expect(await screen.findByText(/On · 3 recovery codes left/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New recovery codes' }));
    let dialog = screen.getByRole('dialog', { name: 'Make new recovery codes?' });
    fireEvent.change(within(dialog).getByLabelText(CODE_LABEL), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make new codes' }));
    dialog = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(requestsTo('POST', '/two-factor-service/recovery-codes')[0]?.body).toEqual({ code: '123456' });

    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    dialog = screen.getByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    fireEvent.change(within(dialog).getByLabelText('Enter a code from your authenticator app, or a recovery code'), {
      target: { value: 'abcde-fghjk' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(requestsTo('POST', '/two-factor-service/disable')[0]?.body).toEqual({ code: 'abcde-fghjk' }));
  });

  it('offers no Turn off while the server requires it', async () => {
    await openSecurity({ enabled: true, recoveryCodesLeft: 10, required: true });
    expect(await screen.findByText(/Required on this server/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
  });
});
