import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DavClient, startDavApp, type DavHarness } from '../dav/dav-support.js';
import { TestClock } from '../users/support.js';
import { enableTwoFactor } from './support.js';

describe('WebDAV for an account with two-factor on', () => {
  let h: DavHarness;
  beforeAll(async () => {
    h = await startDavApp();
  });
  afterAll(() => h.close());

  it('syncs with an app password, and refuses the account password (which has no second step over WebDAV)', async () => {
    const me = await h.account();
    // The server runs on the real clock here: codes are made for the time now.
    await enableTwoFactor(me.browser, new TestClock());
    expect((await me.browser.get('/two-factor-service/status')).json()).toMatchObject({ enabled: true });

    expect((await me.dav.propfind('/dav/', '0')).status).toBe(207);
    const put = await me.dav.request('PUT', '/dav/notes.txt', { body: 'synced' });
    expect([201, 204]).toContain(put.status);
    expect((await me.dav.request('GET', '/dav/notes.txt')).text).toBe('synced');
    expect((await DavClient.basic(h.origin, me.email, me.password).propfind('/dav/', '0')).status).toBe(401);
    expect((await DavClient.basic(h.origin, me.email, me.password).request('GET', '/dav/notes.txt')).status).toBe(401);
  });
});
