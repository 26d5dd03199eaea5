import type { CreatedAppPasswordDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../helpers/test-browser.js';
import { expectError, login, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

/** Guessers spread over many addresses lock themselves and strangers out, never the owner's own devices. */
describe('sign-in throttling keeps the owner in', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  function from(address: string, browserId?: string): TestBrowser {
    const browser = new TestBrowser(h.app, browserId);
    browser.remoteAddress = address;
    return browser;
  }

  /** Ten wrong passwords from each of `count` addresses (`prefix` + 1…count), answered as counted. */
  async function guessFrom(email: string, prefix: string, count: number): Promise<Record<number, number>> {
    const statuses: Record<number, number> = {};
    for (let a = 1; a <= count; a++) {
      const guesser = from(`${prefix}${a}`);
      for (let i = 0; i < 10; i++) {
        const { statusCode } = await login(guesser, email, `guess ${a}.${i}`);
        statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      }
    }
    return statuses;
  }

  it('11 addresses × 10 wrong passwords refuse a stranger, not the browser the owner signed in with', async () => {
    const home = from('198.51.100.1');
    const account = await home.signUp(uniqueEmail());
    expect((await home.post('/user-service/logout')).statusCode).toBe(200);

    expect(await guessFrom(account.email, '203.0.113.', 11)).toEqual({ 401: 100, 429: 10 });

    // Someone with the right password but nothing that shows this account's device is held back.
    const stranger = await login(from('192.0.2.77'), account.email, account.password);
    expectError(stranger, 429, 'LOGIN_THROTTLED');
    expect(stranger.headers['retry-after']).toBe('900');
    // The owner's browser (by its browser id, signed out, on a network it never used) gets in.
    expect((await login(from('192.0.2.1', home.browserId), account.email, account.password)).statusCode).toBe(200);
    // So does any browser on the network the owner signed in from.
    expect((await login(from('198.51.100.1'), account.email, account.password)).statusCode).toBe(200);
  });

  it('a browser still signed in (a live refresh token) passes too, and a wrong password from it still fails', async () => {
    const laptop = from('198.51.100.2');
    const account = await laptop.signUp(uniqueEmail());
    // As if the browser had signed in before this server remembered devices: only its session tells.
    await h.app.database.db.deleteFrom('knownDevice').where('accountId', '=', account.id).execute();
    await guessFrom(account.email, '203.0.114.', 10);

    expectError(await login(from('192.0.2.2', laptop.browserId), account.email, account.password), 429, 'LOGIN_THROTTLED');
    laptop.remoteAddress = '192.0.2.3';
    expectError(await login(laptop, account.email, 'not it'), 401, 'INVALID_CREDENTIALS');
    expect((await login(laptop, account.email, account.password)).statusCode).toBe(200);
    // A refresh token of another browser proves nothing.
    const thief = from('192.0.2.4');
    thief.cookies.set('refresh-token', laptop.cookies.get('refresh-token')!);
    expectError(await login(thief, account.email, account.password), 429, 'LOGIN_THROTTLED');
  });

  it('keeps ten failures per e-mail and address, for the owner’s own browser too', async () => {
    const home = from('198.51.100.3');
    const account = await home.signUp(uniqueEmail());
    for (let i = 0; i < 10; i++) expectError(await login(home, account.email, `typo ${i}`), 401, 'INVALID_CREDENTIALS');
    expectError(await login(home, account.email, account.password), 429, 'LOGIN_THROTTLED');
    expect((await login(from('198.51.100.4', home.browserId), account.email, account.password)).statusCode).toBe(200);
  });

  it('counts IPv6 addresses by their /64, and an IPv4-mapped address as the IPv4 address', async () => {
    const account = await from('198.51.100.5').signUp(uniqueEmail());
    for (let i = 1; i <= 10; i++) {
      expectError(await login(from(`2001:db8:5:1::${i.toString(16)}`), account.email, `guess ${i}`), 401, 'INVALID_CREDENTIALS');
    }
    expectError(await login(from('2001:db8:5:1:ffff:1:2:3'), account.email, account.password), 429, 'LOGIN_THROTTLED');
    expect((await login(from('2001:db8:5:2::1'), account.email, account.password)).statusCode).toBe(200);

    for (let i = 0; i < 10; i++) expectError(await login(from('::ffff:192.0.2.99'), account.email, `guess ${i}`), 401);
    expectError(await login(from('192.0.2.99'), account.email, account.password), 429, 'LOGIN_THROTTLED');
  });

  it('a /64 is one address for the per-address limit: 200 guesses at many accounts, then refused', async () => {
    let refused = 0;
    for (let i = 0; i < 210; i++) {
      const { statusCode } = await login(from(`2001:db8:6:1:${i.toString(16)}::1`), uniqueEmail('nobody'), 'guess');
      if (statusCode === 429) refused++;
    }
    expect(refused).toBe(10);
    const account = await from('198.51.100.6').signUp(uniqueEmail());
    expect((await login(from('2001:db8:6:2::1'), account.email, account.password)).statusCode).toBe(200);
  });

  describe('WebDAV', () => {
    async function withAppPassword(address: string) {
      const browser = from(address);
      const account = await browser.signUp(uniqueEmail());
      const created = await browser.post('/user-service/app-passwords', { name: 'sync' });
      expect(created.statusCode, created.body).toBe(201);
      return { ...account, appPassword: created.json<CreatedAppPasswordDto>().password };
    }

    const dav = (address: string, email: string, password: string) =>
      h.app.inject({
        method: 'PROPFIND',
        url: '/dav/',
        remoteAddress: address,
        headers: { depth: '0', authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` },
      });

    it('failures on /dav/ from many addresses lock neither the sign-in form nor the devices holding an app password', async () => {
      const account = await withAppPassword('198.51.100.7');
      for (let a = 1; a <= 11; a++) {
        for (let i = 0; i < 10; i++) expect([401, 429]).toContain((await dav(`203.0.115.${a}`, account.email, `guess ${i}`)).statusCode);
      }
      // Wrong credentials are refused from anywhere now…
      expect((await dav('192.0.2.10', account.email, 'guess')).statusCode).toBe(429);
      // …but the app password still works, and the account password on the sign-in form too.
      expect((await dav('192.0.2.11', account.email, account.appPassword)).statusCode).toBe(207);
      expect((await login(from('192.0.2.12'), account.email, account.password)).statusCode).toBe(200);
    });

    it('failed sign-ins on the form do not lock WebDAV from the same address, nor WebDAV the form', async () => {
      const account = await withAppPassword('198.51.100.8');
      for (let i = 0; i < 10; i++) expectError(await login(from('203.0.116.1'), account.email, `guess ${i}`), 401);
      expectError(await login(from('203.0.116.1'), account.email, account.password), 429, 'LOGIN_THROTTLED');
      expect((await dav('203.0.116.1', account.email, account.appPassword)).statusCode).toBe(207);

      for (let i = 0; i < 11; i++) await dav('203.0.116.2', account.email, `guess ${i}`);
      expect((await dav('203.0.116.2', account.email, account.appPassword)).statusCode).toBe(429);
      expect((await login(from('203.0.116.2'), account.email, account.password)).statusCode).toBe(200);
    });
  });
});
