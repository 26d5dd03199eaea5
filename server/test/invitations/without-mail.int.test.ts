import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVITE_PREFIX,
  invite,
  listInvitations,
  signUpWith,
  startInvitationsApp,
  tokenOf,
  uniqueEmail,
  type InvitationsHarness,
} from './support.js';

/** An SMTP URL nobody listens on. */
async function deadSmtpUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}

describe.each([
  ['without SMTP', async () => ({})],
  ['when the SMTP server cannot be reached', async () => ({ mail: { smtpUrl: await deadSmtpUrl(), from: 'nimbus@example.com' } })],
])('inviting %s', (_name, configOf) => {
  let h: InvitationsHarness;
  beforeAll(async () => {
    h = await startInvitationsApp({ config: await configOf() });
  });
  afterAll(() => h.close());

  it('hands back the link to pass on, and it works', async () => {
    const email = uniqueEmail('guest');
    const created = await invite(h.admin, email);
    expect(created.emailSent).toBe(false);
    expect(created.link).toMatch(new RegExp(`^${INVITE_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(created.invitation.sentAt).toBeNull();
    const resent = (await h.admin.post(`/invitation-service/invitations/${created.invitation.id}/resend`)).json<typeof created>();
    expect(resent).toMatchObject({ emailSent: false, link: expect.any(String) });
    expect(resent.link).not.toBe(created.link);
    const answer = await signUpWith(h.browser(), email, tokenOf(resent.link!));
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toMatchObject({ user: { emailVerified: true }, emailSent: false });
    expect((await listInvitations(h.admin)).find((i) => i.id === created.invitation.id)?.status).toBe('accepted');
  });
});
