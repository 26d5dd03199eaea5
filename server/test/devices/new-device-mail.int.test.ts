import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../helpers/test-browser.js';
import { startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SUBJECT = 'New sign-in to your Nimbus account';

function signIn(browser: TestBrowser, email: string, userAgent = FIREFOX_WINDOWS) {
  return browser.request('POST', '/user-service/login', { email, password: 'correct horse' }, { 'user-agent': userAgent });
}

/** Gives a server time to send anything it would; the receiver must then still hold nothing new. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 500));
}

describe('the new-device e-mail, with SMTP set', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp({ mail: true });
  });
  afterAll(() => h.close());

  it('tells the account of a sign-in from a browser and network it never used, with what to do', async () => {
    const email = uniqueEmail();
    await h.browser().signUp(email);
    const stranger = h.browser();
    stranger.remoteAddress = '203.0.113.50';
    const since = h.smtp!.messages.length;
    expect((await signIn(stranger, email)).statusCode).toBe(200);

    const mail = await h.smtp!.next(email, since);
    expect(mail.raw).toContain(`Subject: ${SUBJECT}`);
    expect(mail.text).toContain('Firefox 133 on Windows 10');
    expect(mail.text).toContain('203.0.113.50');
    expect(mail.text).toContain(new Date(h.clock.now()).toUTCString());
    expect(mail.text).toContain('change your password');
    expect(mail.text).toContain('Settings');
    expect(mail.text).toContain('Devices');
  });

  it('sends nothing for the browser the account already signed in from, nor on sign-up', async () => {
    const email = uniqueEmail();
    const laptop = h.browser();
    laptop.remoteAddress = '203.0.113.60';
    const since = h.smtp!.messages.length;
    await laptop.signUp(email);
    await laptop.post('/user-service/logout');
    expect((await signIn(laptop, email)).statusCode).toBe(200);
    await settle();
    expect(h.smtp!.messages.slice(since).filter((m) => m.to.includes(email) && m.raw.includes(SUBJECT))).toEqual([]);
  });

  it('sends nothing for a new browser on a network the account signed in from', async () => {
    const email = uniqueEmail();
    await h.browser().signUp(email);
    const since = h.smtp!.messages.length;
    expect((await signIn(h.browser(), email)).statusCode).toBe(200);
    await settle();
    expect(h.smtp!.messages.slice(since).filter((m) => m.to.includes(email) && m.raw.includes(SUBJECT))).toEqual([]);
  });

  it('mails once per new device: the same browser again is known', async () => {
    const email = uniqueEmail();
    await h.browser().signUp(email);
    const stranger = h.browser();
    stranger.remoteAddress = '203.0.113.70';
    const since = h.smtp!.messages.length;
    await signIn(stranger, email);
    await h.smtp!.next(email, since);
    await stranger.post('/user-service/logout');
    const again = h.smtp!.messages.length;
    expect((await signIn(stranger, email)).statusCode).toBe(200);
    await settle();
    expect(h.smtp!.messages.slice(again).filter((m) => m.to.includes(email))).toEqual([]);
  });

  it('sends nothing for a wrong password from a new device', async () => {
    const email = uniqueEmail();
    await h.browser().signUp(email);
    const stranger = h.browser();
    stranger.remoteAddress = '203.0.113.80';
    const since = h.smtp!.messages.length;
    const response = await stranger.post('/user-service/login', { email, password: 'wrong password' });
    expect(response.statusCode).toBe(401);
    await settle();
    expect(h.smtp!.messages.slice(since).filter((m) => m.to.includes(email))).toEqual([]);
  });
});

describe('the new-device e-mail, without SMTP', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  it('is not sent, and the sign-in works as ever', async () => {
    const email = uniqueEmail();
    await h.browser().signUp(email);
    const stranger = h.browser();
    stranger.remoteAddress = '203.0.113.90';
    expect((await signIn(stranger, email)).statusCode).toBe(200);
  });
});

describe('the new-device e-mail, when the SMTP server cannot be reached', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    h = await startUsersApp({ config: { mail: { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'nimbus@example.com' } } });
  });
  afterAll(() => h.close());

  it('does not fail the sign-in', async () => {
    const email = uniqueEmail();
    await h.browser().signUp(email);
    const stranger = h.browser();
    stranger.remoteAddress = '203.0.113.100';
    const response = await signIn(stranger, email);
    expect(response.statusCode).toBe(200);
    expect((await stranger.get('/user-service/user')).statusCode).toBe(200);
    await settle();
  });
});
