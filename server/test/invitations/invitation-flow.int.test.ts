import type { ActivityPageDto, InvitationPreviewDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import {
  DAY,
  INVITE_PREFIX,
  expectError,
  invite,
  listInvitations,
  mailedToken,
  passTime,
  signUpWith,
  startInvitationsApp,
  tokenOf,
  uniqueEmail,
  type InvitationsHarness,
} from './support.js';

describe('an invitation, from the mail to the account', () => {
  let h: InvitationsHarness;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    h = await startInvitationsApp({ mail: true });
    smtp = h.smtp!;
  });
  afterAll(() => h.close());

  it('mails the link, previews it, signs up verified with it, and refuses it a second time', async () => {
    const email = uniqueEmail('Guest');
    const since = smtp.messages.length;
    const created = await invite(h.admin, email);
    expect(created).toEqual({
      invitation: {
        id: expect.any(String),
        email,
        invitedBy: h.adminEmail,
        createdAt: expect.any(String),
        sentAt: expect.any(String),
        expiresAt: new Date(h.clock.now() + 7 * DAY).toISOString(),
        status: 'pending',
      },
      emailSent: true,
      link: null,
    });
    const mail = await smtp.next(email, since);
    expect(mail.text).toContain(h.adminEmail);
    const token = tokenOf(SmtpReceiver.link(mail, INVITE_PREFIX));
    // 256 random bits, base64url; only its hash is stored.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await h.app.database.db
      .selectFrom('invitation')
      .selectAll()
      .where('id', '=', created.invitation.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token);

    const preview = await h.browser().get(`/invitation-service/public/${token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json<InvitationPreviewDto>()).toEqual({ email, expiresAt: created.invitation.expiresAt });
    expect(preview.headers['cache-control']).toBe('private, no-store');
    expect(preview.headers['referrer-policy']).toBe('no-referrer');

    const guest = h.browser();
    const mailsBefore = smtp.messages.length;
    // The address in another letter case is the same address.
    const response = await signUpWith(guest, email.toUpperCase(), token);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ user: { emailVerified: true, role: 'user' }, emailSent: false });
    expect((await guest.get('/user-service/user')).json()).toMatchObject({ emailVerified: true });
    // No verification mail for an address the invitation already proved.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.length).toBe(mailsBefore);

    expect((await listInvitations(h.admin)).find((i) => i.id === created.invitation.id)?.status).toBe('accepted');
    expectError(await h.browser().get(`/invitation-service/public/${token}`), 404, 'INVITATION_NOT_FOUND');
    expectError(await signUpWith(h.browser(), uniqueEmail(), token), 404, 'INVITATION_NOT_FOUND');

    const log = (await guest.get('/user-service/activity')).json<ActivityPageDto>();
    expect(log.events.map((e) => e.type)).toContain('account-created-by-invitation');
    const adminLog = (await h.admin.get('/user-service/activity')).json<ActivityPageDto>();
    expect(adminLog.events.find((e) => e.type === 'invitation-sent')?.details).toEqual({ name: email });
  });

  it('lets one of two racing sign-ups with the same link through', async () => {
    const email = uniqueEmail('race');
    const since = smtp.messages.length;
    await invite(h.admin, email);
    const token = await mailedToken(smtp, email, since);
    const answers = await Promise.all([signUpWith(h.browser(), email, token), signUpWith(h.browser(), email, token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 404]);
    const accounts = await h.app.database.db.selectFrom('account').select('id').where('emailKey', '=', email.toLowerCase()).execute();
    expect(accounts).toHaveLength(1);
  });

  it('refuses a sign-up under another e-mail with 400 INVITATION_EMAIL_MISMATCH, and the link still works', async () => {
    const email = uniqueEmail('right');
    const since = smtp.messages.length;
    await invite(h.admin, email);
    const token = await mailedToken(smtp, email, since);
    const wrong = uniqueEmail('wrong');
    expectError(await signUpWith(h.browser(), wrong, token), 400, 'INVITATION_EMAIL_MISMATCH');
    expect(await h.app.database.db.selectFrom('account').select('id').where('emailKey', '=', wrong).execute()).toEqual([]);
    expect((await signUpWith(h.browser(), email, token)).statusCode).toBe(201);
  });

  it('stops a link after 7 days, and shows the invitation as expired', async () => {
    const email = uniqueEmail('late');
    const since = smtp.messages.length;
    const created = await invite(h.admin, email);
    const token = await mailedToken(smtp, email, since);
    await passTime(h, 7 * DAY - 1000);
    expect((await h.browser().get(`/invitation-service/public/${token}`)).statusCode).toBe(200);
    await passTime(h, 1000);
    const gone = expectError(await h.browser().get(`/invitation-service/public/${token}`), 404, 'INVITATION_NOT_FOUND');
    expect(gone.error).toBe('This invitation does not exist or has expired');
    expectError(await signUpWith(h.browser(), email, token), 404, 'INVITATION_NOT_FOUND');
    expect((await listInvitations(h.admin)).find((i) => i.id === created.invitation.id)?.status).toBe('expired');
  });

  it('resends with a new link and a new expiry; the old link stops', async () => {
    const email = uniqueEmail('again');
    let since = smtp.messages.length;
    const created = await invite(h.admin, email);
    const first = await mailedToken(smtp, email, since);
    await passTime(h, DAY);
    since = smtp.messages.length;
    const resent = await h.admin.post(`/invitation-service/invitations/${created.invitation.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({
      invitation: { id: created.invitation.id, status: 'pending', expiresAt: new Date(h.clock.now() + 7 * DAY).toISOString() },
      emailSent: true,
      link: null,
    });
    const second = await mailedToken(smtp, email, since);
    expect(second).not.toBe(first);
    expectError(await h.browser().get(`/invitation-service/public/${first}`), 404, 'INVITATION_NOT_FOUND');
    expectError(await signUpWith(h.browser(), email, first), 404, 'INVITATION_NOT_FOUND');
    expect((await signUpWith(h.browser(), email, second)).statusCode).toBe(201);
    // An accepted invitation is not sent again.
    expectError(await h.admin.post(`/invitation-service/invitations/${created.invitation.id}/resend`), 409, 'CONFLICT');
    expectError(await h.admin.delete(`/invitation-service/invitations/${created.invitation.id}`), 409, 'CONFLICT');
  });

  it('revokes: the link stops, the list says revoked, and the log records it', async () => {
    const email = uniqueEmail('revoked');
    const since = smtp.messages.length;
    const created = await invite(h.admin, email);
    const token = await mailedToken(smtp, email, since);
    const revoked = await h.admin.delete(`/invitation-service/invitations/${created.invitation.id}`);
    expect(revoked.statusCode).toBe(204);
    expect((await h.admin.delete(`/invitation-service/invitations/${created.invitation.id}`)).statusCode).toBe(204);
    expectError(await h.browser().get(`/invitation-service/public/${token}`), 404, 'INVITATION_NOT_FOUND');
    expectError(await signUpWith(h.browser(), email, token), 404, 'INVITATION_NOT_FOUND');
    expect((await listInvitations(h.admin)).find((i) => i.id === created.invitation.id)?.status).toBe('revoked');
    expectError(await h.admin.post(`/invitation-service/invitations/${created.invitation.id}/resend`), 409, 'CONFLICT');
    const adminLog = (await h.admin.get('/user-service/activity')).json<ActivityPageDto>();
    expect(adminLog.events.find((e) => e.type === 'invitation-revoked')?.details).toEqual({ name: email });
  });

  it('replaces a pending invitation to the same address: the old link stops', async () => {
    const email = uniqueEmail('twice');
    let since = smtp.messages.length;
    const first = await invite(h.admin, email);
    const oldToken = await mailedToken(smtp, email, since);
    since = smtp.messages.length;
    // The same address in other letters (mailers keep the local part's case).
    const shouted = email.replace(/^[^@]+/, (local) => local.toUpperCase());
    const second = await invite(h.admin, shouted);
    const newToken = await mailedToken(smtp, shouted, since);
    expectError(await h.browser().get(`/invitation-service/public/${oldToken}`), 404, 'INVITATION_NOT_FOUND');
    const ids = (await listInvitations(h.admin)).map((i) => i.id);
    expect(ids).toContain(second.invitation.id);
    expect(ids).not.toContain(first.invitation.id);
    expect((await h.browser().get(`/invitation-service/public/${newToken}`)).statusCode).toBe(200);
  });

  it('answers 409 EMAIL_EXISTS for an address that has an account, and for a sign-up whose address was taken meanwhile', async () => {
    expectError(await h.admin.post('/invitation-service/invitations', { email: h.adminEmail.toUpperCase() }), 409, 'EMAIL_EXISTS');
    const email = uniqueEmail('taken');
    const since = smtp.messages.length;
    await invite(h.admin, email);
    const token = await mailedToken(smtp, email, since);
    await h.browser().signUp(email);
    expectError(await signUpWith(h.browser(), email, token), 409, 'EMAIL_EXISTS');
  });

  it('lists newest first', async () => {
    const a = await invite(h.admin, uniqueEmail('older'));
    await passTime(h, 1000);
    const b = await invite(h.admin, uniqueEmail('newer'));
    const ids = (await listInvitations(h.admin)).map((i) => i.id);
    expect(ids.indexOf(b.invitation.id)).toBeLessThan(ids.indexOf(a.invitation.id));
  });
});
