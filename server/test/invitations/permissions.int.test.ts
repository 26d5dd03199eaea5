import type { CreatedInvitationDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../helpers/test-browser.js';
import {
  expectError,
  invite,
  listInvitations,
  passTime,
  setSetting,
  startInvitationsApp,
  uniqueEmail,
  type InvitationsHarness,
} from './support.js';

describe('who may invite, and whose invitations one sees', () => {
  let h: InvitationsHarness;
  let alice: TestBrowser;
  let bob: TestBrowser;
  beforeAll(async () => {
    h = await startInvitationsApp();
    alice = h.browser();
    await alice.signUp(uniqueEmail('alice'));
    bob = h.browser();
    await bob.signUp(uniqueEmail('bob'));
  });
  afterAll(() => h.close());

  it('refuses an account that is not an administrator with 403 INVITE_NOT_ALLOWED while the setting is off', async () => {
    const body = expectError(await alice.post('/invitation-service/invitations', { email: uniqueEmail() }), 403, 'INVITE_NOT_ALLOWED');
    expect(body.error).toBe('Only an administrator can invite people to this server');
    expect(await h.app.database.db.selectFrom('invitation').select('id').execute()).toEqual([]);
    expect(await listInvitations(alice)).toEqual([]);
  });

  it('lets it invite once the setting allows, and shows each account only its own; the admin sees all', async () => {
    await setSetting(h.app, 'usersMayInvite', true);
    const fromAlice = await invite(alice, uniqueEmail('a-guest'));
    const fromBob = await invite(bob, uniqueEmail('b-guest'));
    const fromAdmin = await invite(h.admin, uniqueEmail('admin-guest'));
    expect((await listInvitations(alice)).map((i) => i.id)).toEqual([fromAlice.invitation.id]);
    expect((await listInvitations(bob)).map((i) => i.id)).toEqual([fromBob.invitation.id]);
    expect((await listInvitations(h.admin)).map((i) => i.id).sort()).toEqual(
      [fromAlice.invitation.id, fromBob.invitation.id, fromAdmin.invitation.id].sort(),
    );
  });

  it("answers 404 to another account's invitation (resend, revoke), and leaves it as it was", async () => {
    const mine: CreatedInvitationDto = await invite(bob, uniqueEmail('bobs'));
    const before = await h.app.database.db.selectFrom('invitation').selectAll().where('id', '=', mine.invitation.id).executeTakeFirst();
    expectError(await alice.post(`/invitation-service/invitations/${mine.invitation.id}/resend`), 404, 'INVITATION_NOT_FOUND');
    expectError(await alice.delete(`/invitation-service/invitations/${mine.invitation.id}`), 404, 'INVITATION_NOT_FOUND');
    const after = await h.app.database.db.selectFrom('invitation').selectAll().where('id', '=', mine.invitation.id).executeTakeFirst();
    expect(after).toEqual(before);
    // The administrator may revoke anyone's.
    expect((await h.admin.delete(`/invitation-service/invitations/${mine.invitation.id}`)).statusCode).toBe(204);
  });

  it('refuses a member again once the setting is turned off, without a restart', async () => {
    await setSetting(h.app, 'usersMayInvite', false);
    expectError(await alice.post('/invitation-service/invitations', { email: uniqueEmail() }), 403, 'INVITE_NOT_ALLOWED');
    const own = (await listInvitations(alice))[0]!;
    expectError(await alice.post(`/invitation-service/invitations/${own.id}/resend`), 403, 'INVITE_NOT_ALLOWED');
    // Taking back one's own invitation stays possible.
    expect((await alice.delete(`/invitation-service/invitations/${own.id}`)).statusCode).toBe(204);
  });

  it('answers 401 without a session', async () => {
    const stranger = h.browser();
    expectError(await stranger.post('/invitation-service/invitations', { email: uniqueEmail() }), 401, 'UNAUTHENTICATED');
    expectError(await stranger.get('/invitation-service/invitations'), 401, 'UNAUTHENTICATED');
    expectError(await stranger.delete('/invitation-service/invitations/abc'), 401, 'UNAUTHENTICATED');
  });

  it('limits invitations to 50 an hour per inviting account (429 RATE_LIMITED)', async () => {
    const sender = h.browser();
    await setSetting(h.app, 'usersMayInvite', true);
    await sender.signUp(uniqueEmail('sender'));
    for (let i = 0; i < 50; i++) await invite(sender, uniqueEmail(`bulk${i}`));
    const refused = await sender.post('/invitation-service/invitations', { email: uniqueEmail() });
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not held back by it.
    await invite(h.admin, uniqueEmail('still'));
    await passTime(h, 61 * 60_000);
    await sender.post('/user-service/get-token');
    await invite(sender, uniqueEmail('later'));
  });
});
