import { ACTIVITY_LIMITS, LIMITS, type ActivityEventDto, type ActivityPageDto, type FileDto, type ShareLinkDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecurityEventRepository } from '../../src/db/repositories/security-event.repository.js';
import { SecurityLogService } from '../../src/services/accounts/security-log.service.js';
import { upload } from '../helpers/drive.js';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import type { TestBrowser } from '../helpers/test-browser.js';
import { expectError, login, startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';

const ACTIVITY = '/user-service/activity';
const RESET_PREFIX = 'http://localhost:3000/reset-password/';
const DAY = 24 * 60 * 60_000;

async function activity(browser: TestBrowser, query = ''): Promise<ActivityPageDto> {
  const response = await browser.get(`${ACTIVITY}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ActivityPageDto>();
}

describe('security log', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp({ mail: true, config: { search: { enabled: false, embeddings: null } } });
  });
  afterAll(() => h.close());

  async function account(): Promise<{ browser: TestBrowser; email: string; password: string; id: string }> {
    const browser = h.browser();
    const email = uniqueEmail('log');
    const { id } = await browser.signUp(email, 'first secret');
    return { browser, email, password: 'first secret', id };
  }

  it('records sign-ins with address and user agent, and failed ones for an existing account only', async () => {
    const { email, password } = await account();
    const browser = h.browser();
    browser.remoteAddress = '203.0.113.7';
    const wrong = await browser.request('POST', '/user-service/login', { email, password: 'not it' }, { 'user-agent': 'Evil/1.0' });
    expectError(wrong, 401, 'INVALID_CREDENTIALS');
    h.clock.advance(1000);
    const nobody = await browser.post('/user-service/login', { email: uniqueEmail('nobody'), password });
    expectError(nobody, 401, 'INVALID_CREDENTIALS');
    const right = await browser.request('POST', '/user-service/login', { email, password }, { 'user-agent': 'Firefox/140.0' });
    expect(right.statusCode).toBe(200);

    const { events } = await activity(browser);
    expect(events.map((e) => e.type)).toEqual(['sign-in', 'sign-in-failed']);
    expect(events[0]).toMatchObject({ clientAddress: '203.0.113.7', userAgent: 'Firefox/140.0', details: null });
    expect(events[1]).toMatchObject({ clientAddress: '203.0.113.7', userAgent: 'Evil/1.0' });
    expect(new Date(events[0]!.at).getTime()).toBe(h.clock.now());
    const rows = await h.app.database.db.selectFrom('securityEvent').select('accountId').execute();
    // The unknown address left nothing: every row belongs to an account.
    const ids = new Set((await h.app.database.db.selectFrom('account').select('id').execute()).map((a) => a.id));
    expect(rows.every((r) => ids.has(r.accountId))).toBe(true);
  });

  it('records a password change, a reset and logout-all', async () => {
    const a = await account();
    h.clock.advance(1000);
    const changed = await a.browser.request(
      'PATCH',
      '/user-service/change-password',
      { oldPassword: a.password, newPassword: 'second secret' },
      { 'user-agent': 'Chrome/130' },
    );
    expect(changed.statusCode, changed.body).toBe(200);

    h.clock.advance(1000);
    const since = h.smtp!.messages.length;
    expect((await h.browser().patch('/user-service/send-password-reset', { email: a.email })).statusCode).toBe(200);
    const token = SmtpReceiver.link(await h.smtp!.next(a.email, since), RESET_PREFIX).slice(RESET_PREFIX.length);
    expect((await h.browser().patch('/user-service/reset-password', { passwordToken: token, password: 'third secret' })).statusCode).toBe(
      200,
    );

    const browser = h.browser();
    h.clock.advance(1000);
    expect((await login(browser, a.email, 'third secret')).statusCode).toBe(200);
    h.clock.advance(1000);
    expect((await browser.post('/user-service/logout-all')).statusCode).toBe(200);
    h.clock.advance(1000);
    expect((await login(browser, a.email, 'third secret')).statusCode).toBe(200);

    const types = (await activity(browser)).events.map((e) => e.type);
    expect(types).toEqual(['sign-in', 'logout-all', 'sign-in', 'password-reset', 'password-changed']);
    const changedEvent = (await activity(browser)).events.find((e) => e.type === 'password-changed')!;
    expect(changedEvent.userAgent).toBe('Chrome/130');
  });

  it('records app passwords created and revoked, with their names', async () => {
    const { browser } = await account();
    const created = (await browser.post('/user-service/app-passwords', { name: 'Laptop (rclone)' })).json<{ id: string }>();
    h.clock.advance(1000);
    expect((await browser.delete(`/user-service/app-passwords/${created.id}`)).statusCode).toBe(204);
    expect((await browser.delete(`/user-service/app-passwords/${created.id}`)).statusCode).toBe(404);
    const { events } = await activity(browser);
    expect(events.map((e) => [e.type, e.details])).toEqual([
      ['app-password-revoked', { name: 'Laptop (rclone)' }],
      ['app-password-created', { name: 'Laptop (rclone)' }],
    ]);
  });

  it('records failed WebDAV sign-ins, and a lock-out once however often the device retries', async () => {
    const { browser, email } = await account();
    const dav = (password: string) =>
      h.app.inject({
        method: 'PROPFIND',
        url: '/dav/',
        remoteAddress: '198.51.100.9',
        headers: {
          depth: '0',
          'user-agent': 'rclone/v1.60.1',
          authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
        },
      });
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.loginMaxFailures + 3; i++) {
      h.clock.advance(1000);
      statuses.push((await dav('revoked-app-password')).statusCode);
    }
    expect(statuses).toEqual([...Array(LIMITS.loginMaxFailures).fill(401), 429, 429, 429]);

    const { events } = await activity(browser);
    const failed = events.filter((e) => e.type === 'sign-in-failed');
    expect(failed.map((e) => e.details?.kind)).toEqual(['webdav-throttled', ...Array(LIMITS.loginMaxFailures).fill('webdav')]);
    expect(failed[0]).toMatchObject({ clientAddress: '198.51.100.9', userAgent: 'rclone/v1.60.1' });
  });

  it('records every sharing change: file links and share links', async () => {
    const { browser } = await account();
    const file = await upload(browser, 'report.pdf', 'pdf bytes');
    for (const call of ['make-public', 'make-one', 'remove-link']) {
      expect((await browser.patch(`/file-service/${call}/${file._id}`)).json<FileDto>()._id).toBe(file._id);
      h.clock.advance(1000);
    }
    const link = await browser.post('/share-service/links', { itemType: 'file', itemId: file._id, kind: 'view' });
    expect(link.statusCode, link.body).toBe(201);
    const { id } = link.json<ShareLinkDto>();
    h.clock.advance(1000);
    expect((await browser.patch(`/share-service/links/${id}`, { allowDownload: false })).statusCode).toBe(200);
    h.clock.advance(1000);
    expect((await browser.delete(`/share-service/links/${id}`)).statusCode).toBe(204);

    const { events } = await activity(browser);
    const named = { name: 'report.pdf', itemType: 'file' };
    expect(events.map((e) => [e.type, e.details])).toEqual([
      ['share-link-revoked', { ...named, kind: 'view' }],
      ['share-link-updated', { ...named, kind: 'view' }],
      ['share-link-created', { ...named, kind: 'view' }],
      ['file-link-removed', named],
      ['file-link-one-time', named],
      ['file-link-public', named],
    ]);
  });

  it('shows each account its own events only', async () => {
    const a = await account();
    const b = await account();
    await a.browser.post('/user-service/app-passwords', { name: 'A device' });
    const mine = await activity(b.browser);
    expect(JSON.stringify(mine)).not.toContain('A device');
    const rowsOfB = await h.app.database.db.selectFrom('securityEvent').select('id').where('accountId', '=', b.id).execute();
    expect(mine.events.map((e) => e.id).sort()).toEqual(rowsOfB.map((r) => r.id).sort());
    // Another account's cursor shows nothing of it either.
    const page = await activity(a.browser, '?limit=1');
    expect(page.nextCursor).toBeNull();
    const fromA = await h.app.database.db.selectFrom('securityEvent').selectAll().where('accountId', '=', a.id).executeTakeFirstOrThrow();
    const cursorOfA = Buffer.from(`${fromA.createdAt + 1}.${'z'.repeat(25)}`).toString('base64url');
    expect(
      (await activity(b.browser, `?cursor=${cursorOfA}`)).events.every((e: ActivityEventDto) => e.type !== 'app-password-created'),
    ).toBe(true);
  });

  it('pages newest first by cursor, without gaps or repeats', async () => {
    const { browser } = await account();
    for (let i = 0; i < 7; i++) {
      h.clock.advance(i % 2 === 0 ? 0 : 1000); // several events share a time: ties are broken by id
      await browser.post('/user-service/app-passwords', { name: `Device ${i}` });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ActivityPageDto = await activity(browser, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.events.length).toBeLessThanOrEqual(3);
      seen.push(...page.events.map((e) => e.details!.name!));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // Times never go up from one event to the next; events of one time come in id order.
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `Device ${i}`));
    const all = (await activity(browser)).events;
    expect(all.map((e) => e.details!.name)).toEqual(seen);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.at >= all[i]!.at).toBe(true);
    expect((await activity(browser)).events).toHaveLength(7);
  });

  it('refuses bad query parameters with 400 and strangers with 401', async () => {
    const { browser } = await account();
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?limit=1.5', '?cursor=%25%25', '?cursor=bm9wZQ', '?other=1']) {
      expectError(await browser.get(`${ACTIVITY}${query}`), 400, 'VALIDATION_FAILED');
    }
    expect((await activity(browser, `?limit=${ACTIVITY_LIMITS.maxPageSize}`)).events).toEqual([]);
    expectError(await h.browser().get(ACTIVITY), 401, 'UNAUTHENTICATED');
  });

  it('is pruned by housekeeping: nothing older than the retention, at most the cap per account', async () => {
    const { id } = await account();
    const log = new SecurityLogService(new SecurityEventRepository(h.app.database.db), h.clock);
    const keep = ACTIVITY_LIMITS.keptPerAccount;
    const now = h.clock.now();
    const rows = Array.from({ length: keep + 5 }, (_, i) => ({
      id: `prune${String(i).padStart(20, '0')}`,
      accountId: id,
      type: 'sign-in',
      createdAt: now - i * 1000,
      clientAddress: null,
      userAgent: null,
      details: null,
    }));
    rows.push({ ...rows[0]!, id: `prune-old${'0'.repeat(16)}`, createdAt: now - (ACTIVITY_LIMITS.keptDays + 1) * DAY });
    for (let i = 0; i < rows.length; i += 200)
      await h.app.database.db
        .insertInto('securityEvent')
        .values(rows.slice(i, i + 200))
        .execute();

    await h.app.background.schedule();
    await h.app.background.drainJobs();
    const left = await h.app.database.db.selectFrom('securityEvent').select(['id', 'createdAt']).where('accountId', '=', id).execute();
    expect(left).toHaveLength(keep);
    expect(Math.min(...left.map((r) => r.createdAt))).toBeGreaterThan(now - keep * 1000);
    expect(await log.prune()).toBe(0);
  });
});
