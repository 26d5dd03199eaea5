import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../helpers/test-browser.js';
import { expectError, snapshotTables, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

/** Every state-changing call with a body that would succeed if the header were there. */
const CALLS: [method: 'POST' | 'PATCH', url: string, body: (account: { email: string; password: string }) => unknown][] = [
  ['POST', '/user-service/create', () => ({ email: 'newcomer@example.com', password: 'secret1' })],
  ['POST', '/user-service/login', (a) => ({ email: a.email, password: a.password })],
  ['POST', '/user-service/get-token', () => undefined],
  ['POST', '/user-service/logout', () => undefined],
  ['POST', '/user-service/logout-all', () => undefined],
  ['PATCH', '/user-service/change-password', (a) => ({ oldPassword: a.password, newPassword: 'brand new secret' })],
  ['PATCH', '/user-service/resend-verify-email', () => undefined],
  ['PATCH', '/user-service/verify-email', () => ({ emailToken: 'some-token' })],
  ['PATCH', '/user-service/send-password-reset', (a) => ({ email: a.email })],
  ['PATCH', '/user-service/reset-password', () => ({ passwordToken: 'some-token', password: 'brand new secret' })],
];

const BAD_IDS: [string, string | undefined][] = [
  ['missing', undefined],
  ['empty', ''],
  ['too long', 'a'.repeat(101)],
  ['with forbidden characters', "' OR 1=1 --"],
];

describe('state-changing calls without a valid uuid header', () => {
  let h: UsersHarness;
  let browser: TestBrowser;
  let account: { email: string; password: string };
  let before: Awaited<ReturnType<typeof snapshotTables>>;

  beforeAll(async () => {
    h = await startUsersApp({ mail: true });
    browser = h.browser();
    account = await browser.signUp(uniqueEmail());
    // Past the sign-up cooldown, so a resend or reset would otherwise go out.
    h.clock.advance(61_000);
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    before = await snapshotTables(h.app);
  });

  describe.each(BAD_IDS)('uuid header %s', (_name, uuid) => {
    it.each(CALLS)('%s %s answers 400 MISSING_BROWSER_ID and changes nothing', async (method, url, body) => {
      const mailsBefore = h.smtp!.messages.length;
      const response = await browser.request(method, url, body(account), { uuid });
      expectError(response, 400, 'MISSING_BROWSER_ID');
      expect(response.cookies).toEqual([]);
      expect(await snapshotTables(h.app)).toEqual(before);
      expect(h.smtp!.messages.length).toBe(mailsBefore);
      expect((await browser.get('/user-service/user')).statusCode).toBe(200);
    });
  });

  it('reads (GET) work without the header', async () => {
    const response = await browser.request('GET', '/user-service/user', undefined, { uuid: undefined });
    expect(response.statusCode).toBe(200);
  });
});
