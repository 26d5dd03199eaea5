import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, invite, signUpWith, startInvitationsApp, uniqueEmail, type InvitationsHarness } from './support.js';

describe('invitation routes refuse malformed input', () => {
  let h: InvitationsHarness;
  beforeAll(async () => {
    h = await startInvitationsApp();
  });
  afterAll(() => h.close());

  const count = async () => (await h.app.database.db.selectFrom('invitation').select('id').execute()).length;

  it.each([
    ['no e-mail', {}],
    ['a malformed e-mail', { email: 'not-an-email' }],
    ['an e-mail of the wrong type', { email: 42 }],
    ['an e-mail of a megabyte', { email: `${'a'.repeat(1_000_000)}@example.com` }],
    ['an e-mail over 320 characters', { email: `${'a'.repeat(320)}@example.com` }],
    ['an array', [{ email: 'a@example.com' }]],
  ])('POST /invitations with %s: 400 (or 413), nothing stored', async (_name, body) => {
    const before = await count();
    const response = await h.admin.post('/invitation-service/invitations', body);
    expect([400, 413]).toContain(response.statusCode);
    expect(await count()).toBe(before);
  });

  it('answers 404 INVITATION_NOT_FOUND for unknown ids, and 400 for ids too long', async () => {
    expectError(await h.admin.post('/invitation-service/invitations/nope/resend'), 404, 'INVITATION_NOT_FOUND');
    expectError(await h.admin.delete('/invitation-service/invitations/nope'), 404, 'INVITATION_NOT_FOUND');
    expectError(await h.admin.delete(`/invitation-service/invitations/${'x'.repeat(65)}`), 400, 'VALIDATION_FAILED');
  });

  it.each([
    ['unknown', 'A'.repeat(43), 404],
    ['too long', 'A'.repeat(129), 400],
    ['with odd characters', encodeURIComponent("'; drop table invitation; --"), 404],
    ['of one character', 'x', 404],
  ])('GET /public/:token %s', async (_name, token, status) => {
    const response = await h.browser().get(`/invitation-service/public/${token}`);
    expectError(response, status, status === 404 ? 'INVITATION_NOT_FOUND' : 'VALIDATION_FAILED');
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it.each([
    ['an empty invitation', ''],
    ['an invitation over 128 characters', 'x'.repeat(129)],
    ['an invitation of the wrong type', 12345],
  ])('sign-up with %s: 400, no account', async (_name, invitation) => {
    const email = uniqueEmail();
    const response = await h.browser().post('/user-service/create', { email, password: 'secret1', invitation });
    expectError(response, 400, 'VALIDATION_FAILED');
    expect(await h.app.database.db.selectFrom('account').select('id').where('emailKey', '=', email).execute()).toEqual([]);
  });

  it('a sign-up with a real token and a malformed e-mail is refused before the token is spent', async () => {
    const email = uniqueEmail('kept');
    const { link } = await invite(h.admin, email);
    const token = link!.split('/').pop()!;
    expectError(await signUpWith(h.browser(), 'not-an-email', token), 400, 'VALIDATION_FAILED');
    expect((await signUpWith(h.browser(), email, token)).statusCode).toBe(201);
  });
});
