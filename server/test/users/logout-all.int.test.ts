import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, login, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

describe('POST /user-service/logout-all', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  it("ends every session of the user at once, another browser's too", async () => {
    const laptop = h.browser();
    const phone = h.browser();
    const account = await laptop.signUp(uniqueEmail());
    expect((await login(phone, account.email, account.password)).statusCode).toBe(200);

    const response = await laptop.post('/user-service/logout-all');
    expect(response.statusCode).toBe(200);
    expect(laptop.cookies.size).toBe(0);

    // The phone still holds an access token that has not expired: revocation is checked anyway.
    expect(phone.cookies.has('access-token')).toBe(true);
    expectError(await phone.get('/user-service/user'), 401);
    expectError(await phone.post('/user-service/get-token'), 401);
    expect(phone.cookies.size).toBe(0);
  });

  it("leaves other users' sessions alone", async () => {
    const mine = h.browser();
    const theirs = h.browser();
    await mine.signUp(uniqueEmail());
    await theirs.signUp(uniqueEmail());
    await mine.post('/user-service/logout-all');
    expect((await theirs.get('/user-service/user')).statusCode).toBe(200);
    expect((await theirs.post('/user-service/get-token')).statusCode).toBe(200);
  });

  it('answers 401 when signed out', async () => {
    expectError(await h.browser().post('/user-service/logout-all'), 401, 'UNAUTHENTICATED');
  });

  it('lets the user sign in again afterwards', async () => {
    const browser = h.browser();
    const account = await browser.signUp(uniqueEmail());
    await browser.post('/user-service/logout-all');
    expect((await login(browser, account.email, account.password)).statusCode).toBe(200);
    expect((await browser.get('/user-service/user')).statusCode).toBe(200);
  });
});
