import { STORAGE_KEYS } from '@nimbus/common';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockDrive } from '../../test/drive-fixtures';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const CODE_LABEL = 'Enter the 6-digit code from your authenticator app';

async function passwordStep(methods: string[] = ['totp', 'recovery']) {
  onRequest('POST', '/user-service/login', { status: 202, data: { secondFactor: { ticket: 'tkt', methods } } });
  renderApp('/');
  await screen.findByRole('heading', { name: 'Login to your account' });
  fill('Email address', 'ada@example.com');
  fill('Password', 'secret1');
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
}

beforeEach(() => {
  onRequest('GET', '/user-service/user', () =>
    requestsTo('POST', '/user-service/login/second-factor').length > 0
      ? { status: 200, data: testUser }
      : { status: 401, data: errorBody('UNAUTHENTICATED') },
  );
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
  mockDrive();
});

describe('login: the second step', () => {
  it('asks for the code after a 202, sends it with the ticket, and goes home', async () => {
    onRequest('POST', '/user-service/login/second-factor', { status: 200, data: { user: testUser } });
    await passwordStep();
    await screen.findByRole('heading', { name: 'Two-factor sign-in' });
    const verify = screen.getByRole('button', { name: 'Verify' });
    fill(CODE_LABEL, '12345');
    expect(verify.hasAttribute('disabled')).toBe(true);
    fill(CODE_LABEL, '123 456');
    fireEvent.click(verify);
    await screen.findByRole('heading', { name: 'Home' });
    expect(requestsTo('POST', '/user-service/login/second-factor')[0]?.body).toEqual({ ticket: 'tkt', code: '123456' });
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBe(testUser._id);
  });

  it('says in words that a code is wrong, and takes a recovery code instead', async () => {
    onRequest('POST', '/user-service/login/second-factor', (request) =>
      (request.body as { code?: string }).code
        ? { status: 401, data: errorBody('INVALID_CODE') }
        : { status: 200, data: { user: testUser } },
    );
    await passwordStep();
    fill(await screen.findByLabelText(CODE_LABEL).then(() => CODE_LABEL), '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/That code is not right/);
    expect(screen.queryByText('INVALID_CODE')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    fill('Enter one of your recovery codes', 'abcde-fghjk');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { name: 'Home' });
    expect(requestsTo('POST', '/user-service/login/second-factor')[1]?.body).toEqual({ ticket: 'tkt', recoveryCode: 'abcde-fghjk' });
  });

  it('tells a throttled or expired second step apart, and Cancel goes back to the password', async () => {
    onRequest('POST', '/user-service/login/second-factor', { status: 429, data: errorBody('LOGIN_THROTTLED') });
    await passwordStep();
    fill(await screen.findByLabelText(CODE_LABEL).then(() => CODE_LABEL), '111111');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Too many wrong codes/);
    onRequest('POST', '/user-service/login/second-factor', { status: 401, data: errorBody('INVALID_TICKET') });
    fill(CODE_LABEL, '222222');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/took too long/));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('heading', { name: 'Login to your account' });
  });

  it('sets two-factor up when the server requires it, shows the recovery codes, then goes home', async () => {
    onRequest('POST', '/two-factor-service/setup-with-ticket', {
      status: 200,
      data: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Nimbus:ada?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' },
    });
    onRequest('POST', '/two-factor-service/enable-with-ticket', {
      status: 200,
      data: { user: testUser, recoveryCodes: ['aaaaa-bbbbb', 'ccccc-ddddd'] },
    });
    onRequest('GET', '/user-service/user', () =>
      requestsTo('POST', '/two-factor-service/enable-with-ticket').length > 0
        ? { status: 200, data: testUser }
        : { status: 401, data: errorBody('UNAUTHENTICATED') },
    );
    await passwordStep(['setup']);
    await screen.findByRole('heading', { name: 'Set up two-factor sign-in' });
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBeTruthy();
    fill(CODE_LABEL, '654321');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('aaaaa-bbbbb')).toBeTruthy();
    expect(requestsTo('POST', '/two-factor-service/enable-with-ticket')[0]?.body).toEqual({ ticket: 'tkt', code: '654321' });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Home' });
  });
});
