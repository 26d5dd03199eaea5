import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, invite, passTime, startInvitationsApp, uniqueEmail, type InvitationsHarness } from './support.js';

describe('housekeeping and invitations', () => {
  let h: InvitationsHarness;
  beforeAll(async () => {
    h = await startInvitationsApp();
  });
  afterAll(() => h.close());

  const ids = async () => (await h.app.database.db.selectFrom('invitation').select('id').execute()).map((r) => r.id).sort();

  it('deletes invitations expired over 30 days ago, and keeps the rest', async () => {
    const old = await invite(h.admin, uniqueEmail('old'));
    const accepted = await invite(h.admin, uniqueEmail('accepted'));
    const acceptedEmail = accepted.invitation.email;
    const token = accepted.link!.split('/').pop()!;
    expect(
      (await h.browser().post('/user-service/create', { email: acceptedEmail, password: 'secret1', invitation: token })).statusCode,
    ).toBe(201);
    await passTime(h, 15 * DAY);
    await passTime(h, 15 * DAY);
    const recent = await invite(h.admin, uniqueEmail('recent'));
    // `old` expired 23 days ago: kept, shown as expired.
    await h.app.background.schedule();
    await h.app.background.drainJobs();
    expect(await ids()).toEqual([old.invitation.id, accepted.invitation.id, recent.invitation.id].sort());

    await passTime(h, 8 * DAY);
    await h.app.background.schedule();
    await h.app.background.drainJobs();
    expect(await ids()).toEqual([accepted.invitation.id, recent.invitation.id].sort());
  });
});
