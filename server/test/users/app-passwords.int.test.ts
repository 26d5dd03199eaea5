import type { AppPasswordDto, CreatedAppPasswordDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPasswordRepository } from '../../src/db/repositories/app-password.repository.js';
import { AppPasswordService, MAX_APP_PASSWORDS } from '../../src/services/accounts/app-password.service.js';
import { expectError, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

const URL = '/user-service/app-passwords';

describe('app passwords', () => {
  let h: UsersHarness;
  let service: AppPasswordService;
  beforeAll(async () => {
    h = await startUsersApp();
    service = new AppPasswordService(new AppPasswordRepository(h.app.database.db), h.clock);
  });
  afterAll(() => h.close());

  async function signedIn() {
    const browser = h.browser();
    const account = await browser.signUp(uniqueEmail());
    return { browser, account };
  }

  it('shows the secret once at creation, lists without it, and revokes at once', async () => {
    const { browser, account } = await signedIn();
    const created = await browser.post(URL, { name: '  Laptop (rclone)  ' });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const body = created.json<CreatedAppPasswordDto>();
    expect(body).toMatchObject({ name: 'Laptop (rclone)', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(body.password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const listed = (await browser.get(URL)).json<AppPasswordDto[]>();
    expect(listed).toEqual([{ id: body.id, name: 'Laptop (rclone)', createdAt: body.createdAt, lastUsedAt: null }]);
    expect(JSON.stringify(listed)).not.toContain(body.password);
    const stored = await h.app.database.db.selectFrom('appPassword').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(body.password);

    expect(await service.verify(account.id, body.password)).toBe(true);
    expect((await browser.get(URL)).json<AppPasswordDto[]>()[0]!.lastUsedAt).not.toBeNull();
    expect(await service.verify(account.id, `${body.password}x`)).toBe(false);

    expect((await browser.delete(`${URL}/${body.id}`)).statusCode).toBe(204);
    expect(await service.verify(account.id, body.password)).toBe(false);
    expect((await browser.get(URL)).json()).toEqual([]);
  });

  it('survives a password change and signing out everywhere', async () => {
    const { browser, account } = await signedIn();
    const { password } = (await browser.post(URL, { name: 'Phone' })).json<CreatedAppPasswordDto>();
    expect(
      (await browser.patch('/user-service/change-password', { oldPassword: account.password, newPassword: 'another secret' })).statusCode,
    ).toBe(200);
    expect((await browser.post('/user-service/logout-all')).statusCode).toBe(200);
    expect(await service.verify(account.id, password)).toBe(true);
  });

  it("never reaches another account's app passwords", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const { id, password } = (await alice.browser.post(URL, { name: 'Alice NAS' })).json<CreatedAppPasswordDto>();
    expectError(await bob.browser.delete(`${URL}/${id}`), 404, 'NOT_FOUND');
    expect((await bob.browser.get(URL)).json()).toEqual([]);
    expect(await service.verify(bob.account.id, password)).toBe(false);
    expect(await service.verify(alice.account.id, password)).toBe(true);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const { browser } = await signedIn();
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 42 }, { name: ['a'] }, 'not json']) {
      expectError(await browser.post(URL, body), 400);
    }
    expectError(await browser.delete(`${URL}/${'x'.repeat(65)}`), 400);
    expectError(await browser.delete(`${URL}/unknown`), 404);
    expect((await browser.get(URL)).json()).toEqual([]);
  });

  it('answers 401 when signed out', async () => {
    const anonymous = h.browser();
    expectError(await anonymous.get(URL), 401);
    expectError(await anonymous.post(URL, { name: 'x' }), 401);
    expectError(await anonymous.delete(`${URL}/abc`), 401);
  });

  it(`keeps at most ${MAX_APP_PASSWORDS} per account`, async () => {
    const { browser } = await signedIn();
    for (let i = 0; i < MAX_APP_PASSWORDS; i++) expect((await browser.post(URL, { name: `device ${i}` })).statusCode).toBe(201);
    expectError(await browser.post(URL, { name: 'one too many' }), 409, 'CONFLICT');
  });
});
