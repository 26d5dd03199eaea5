import type { ShareLinkDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { TestClock } from '../users/support.js';

const PUBLIC = '/share-service/public';
const PASSWORD = 'open sesame';

/** Wrong guesses at a link's password lock out the guesser's address group, not the link's other visitors. */
describe('share-link password throttling', () => {
  let t: TestApp;
  let owner: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp({}, { clock: new TestClock() });
    owner = new TestBrowser(t.app);
    await owner.signUp();
  });
  afterAll(() => t.close());

  function visitor(address: string): TestBrowser {
    const browser = new TestBrowser(t.app);
    browser.remoteAddress = address;
    return browser;
  }

  async function protectedLink(): Promise<ShareLinkDto & { fileId: string }> {
    const file = await upload(owner, 'plan.txt', 'the plan');
    const response = await owner.post('/share-service/links', { itemType: 'file', itemId: file._id, password: PASSWORD });
    expect(response.statusCode, response.body).toBe(201);
    return { ...(response.json() as ShareLinkDto), fileId: file._id };
  }

  const unlock = (who: TestBrowser, link: ShareLinkDto, password: string) => who.post(`${PUBLIC}/${link.token}/unlock`, { password });

  it('10 wrong guesses from one address lock that address only; another visitor gets in with the password', async () => {
    const link = await protectedLink();
    const guesser = visitor('203.0.113.40');
    for (let i = 0; i < 10; i++) expect((await unlock(guesser, link, `guess ${i}`)).statusCode).toBe(401);
    const refused = await unlock(guesser, link, PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    const other = visitor('198.51.100.40');
    expect((await unlock(other, link, PASSWORD)).statusCode).toBe(200);
    expect((await other.get(`${PUBLIC}/${link.token}`)).json()).toMatchObject({ passwordRequired: false });
  });

  it('counts IPv6 guesses by /64', async () => {
    const link = await protectedLink();
    for (let i = 1; i <= 10; i++) expect((await unlock(visitor(`2001:db8:40:1::${i}`), link, `guess ${i}`)).statusCode).toBe(401);
    expect((await unlock(visitor('2001:db8:40:1:aaaa::1'), link, PASSWORD)).statusCode).toBe(429);
    expect((await unlock(visitor('2001:db8:40:2::1'), link, PASSWORD)).statusCode).toBe(200);
  });

  it('guesses from many addresses reach a much higher per-link limit, which holds back no visitor already let in', async () => {
    const link = await protectedLink();
    const earlier = visitor('198.51.100.41');
    expect((await unlock(earlier, link, PASSWORD)).statusCode).toBe(200);

    const statuses: number[] = [];
    for (let a = 1; a <= 11; a++) {
      for (let i = 0; i < 10; i++) statuses.push((await unlock(visitor(`203.0.114.${a}`), link, `guess ${a}.${i}`)).statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);

    // A newcomer now waits…
    expect((await unlock(visitor('192.0.2.41'), link, PASSWORD)).statusCode).toBe(429);
    // …while the visitor who gave the password keeps browsing and downloading.
    expect((await earlier.get(`${PUBLIC}/${link.token}`)).json()).toMatchObject({ passwordRequired: false });
    const download = await earlier.get(`${PUBLIC}/${link.token}/files/${link.fileId}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('the plan');
  });
});
