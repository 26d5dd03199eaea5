import type { SignupMode } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUsersApp, type UsersHarness } from '../users/support.js';
import {
  expectError,
  invite,
  setSetting,
  signUpWith,
  startInvitationsApp,
  tokenOf,
  uniqueEmail,
  type InvitationsHarness,
} from './support.js';

async function modeOf(h: UsersHarness): Promise<SignupMode> {
  const response = await h.browser().request('GET', '/user-service/signup-mode', undefined, { uuid: undefined });
  expect(response.statusCode).toBe(200);
  return response.json<{ signup: SignupMode }>().signup;
}

const signUp = (h: UsersHarness) => h.browser().post('/user-service/create', { email: uniqueEmail(), password: 'secret1' });

describe.each([
  ['closed', 'SIGNUP_CLOSED', 'Sign-up is closed'],
  ['invite', 'SIGNUP_INVITE_ONLY', 'Sign-up is by invitation only'],
] as const)('SIGNUP=%s', (mode, code, message) => {
  let h: InvitationsHarness;
  beforeAll(async () => {
    h = await startInvitationsApp({ config: { signup: mode } });
  });
  afterAll(() => h.close());

  it(`refuses a sign-up without an invitation with 403 ${code}, creating nothing`, async () => {
    const before = await h.app.database.db.selectFrom('account').select('id').execute();
    const browser = h.browser();
    const body = expectError(await browser.post('/user-service/create', { email: uniqueEmail(), password: 'secret1' }), 403, code);
    expect(body.error).toBe(message);
    expect(browser.cookies.size).toBe(0);
    expect(await h.app.database.db.selectFrom('account').select('id').execute()).toEqual(before);
    expect(await modeOf(h)).toBe(mode);
  });

  it('takes a sign-up with an invitation', async () => {
    const email = uniqueEmail('invited');
    const { link } = await invite(h.admin, email);
    expect((await signUpWith(h.browser(), email, tokenOf(link!))).statusCode).toBe(201);
  });

  it('follows the admin setting over SIGNUP at once, without a restart', async () => {
    await setSetting(h.app, 'signup', 'open');
    expect(await modeOf(h)).toBe('open');
    expect((await signUp(h)).statusCode).toBe(201);
    const other = mode === 'closed' ? 'invite' : 'closed';
    await setSetting(h.app, 'signup', other);
    expect(await modeOf(h)).toBe(other);
    expectError(await signUp(h), 403, other === 'closed' ? 'SIGNUP_CLOSED' : 'SIGNUP_INVITE_ONLY');
    await setSetting(h.app, 'signup', mode);
  });
});

describe('SIGNUP=open', () => {
  let h: InvitationsHarness;
  beforeAll(async () => {
    h = await startInvitationsApp();
  });
  afterAll(() => h.close());

  it('takes anyone, until the admin setting closes sign-up', async () => {
    expect(await modeOf(h)).toBe('open');
    expect((await signUp(h)).statusCode).toBe(201);
    await setSetting(h.app, 'signup', 'invite');
    expectError(await signUp(h), 403, 'SIGNUP_INVITE_ONLY');
    await setSetting(h.app, 'signup', 'closed');
    expectError(await signUp(h), 403, 'SIGNUP_CLOSED');
  });

  it('still takes a sign-up with an invitation when the setting closed sign-up', async () => {
    await setSetting(h.app, 'signup', 'closed');
    const email = uniqueEmail('invited');
    const { link } = await invite(h.admin, email);
    expect((await signUpWith(h.browser(), email, tokenOf(link!))).statusCode).toBe(201);
  });

  it('answers 404 INVITATION_NOT_FOUND for a sign-up with an unknown invitation, in every mode', async () => {
    for (const mode of ['open', 'invite', 'closed'] as const) {
      await setSetting(h.app, 'signup', mode);
      expectError(await signUpWith(h.browser(), uniqueEmail(), 'x'.repeat(43)), 404, 'INVITATION_NOT_FOUND');
    }
  });
});

describe('a server without accounts', () => {
  it('in invite mode says open, and takes its first account as administrator', async () => {
    const h = await startUsersApp({ config: { signup: 'invite' } });
    try {
      expect(await modeOf(h)).toBe('open');
      const first = await signUp(h);
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ user: { role: 'admin' } });
      expect(await modeOf(h)).toBe('invite');
      expectError(await signUp(h), 403, 'SIGNUP_INVITE_ONLY');
    } finally {
      await h.close();
    }
  });

  it('in closed mode refuses its first account too, as the runtime contract says', async () => {
    const h = await startUsersApp({ config: { signup: 'closed' } });
    try {
      expect(await modeOf(h)).toBe('closed');
      expectError(await signUp(h), 403, 'SIGNUP_CLOSED');
      expect(await h.app.database.db.selectFrom('account').select('id').execute()).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
