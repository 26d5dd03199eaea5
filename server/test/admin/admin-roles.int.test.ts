import type { CreatedInvitationDto } from '@nimbus/common';
import type { LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { accountOf } from './support.js';

type Caller = 'signedOut' | 'disabled' | 'user' | 'admin';
const CALLERS: Caller[] = ['signedOut', 'disabled', 'user', 'admin'];

/** 'ok' is any 2xx; otherwise the status and, for a refusal the caller can act on, the code. */
type Answer = 'ok' | { status: number; code?: string };
const SIGNED_OUT = { status: 401 };
const ADMIN_ONLY = { status: 403, code: 'ADMIN_ONLY' };
const INVITE_NOT_ALLOWED = { status: 403, code: 'INVITE_NOT_ALLOWED' };

interface Case {
  name: string;
  /** The registered route it calls, `METHOD /pattern`, as `app.apiRoutes` names it. */
  route: string;
  /** What a plain user is answered (with `usersMayInvite` off, the server's default). */
  user: Answer;
  /** Makes what one call needs (a fresh account, an invitation) and sends it. */
  call: (as: TestBrowser) => Promise<LightMyRequestResponse>;
}

const FAMILIES = ['/admin-service/', '/invitation-service/'];

/**
 * Every route of the admin area and of invitations, called signed out, from a disabled account
 * (an administrator's, so only the disabling stops it), a plain user and an administrator.
 */
describe('admin and invitation routes by role', () => {
  let t: TestApp;
  const as = {} as Record<Caller, TestBrowser>;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await accountOf(t, 'admin');
    const user = await accountOf(t, 'user');
    const disabled = await accountOf(t, 'admin');
    await t.app.database.db.updateTable('account').set({ disabledAt: Date.now() }).where('id', '=', disabled.id).execute();
    as.admin = admin.browser;
    as.user = user.browser;
    as.disabled = disabled.browser;
    as.signedOut = new TestBrowser(t.app);
    userId = user.id;
  });
  afterAll(() => t.close());

  const freshAccount = () => accountOf(t, 'user');
  const invitationBy = async (inviter: TestBrowser) => {
    const made = await inviter.post('/invitation-service/invitations', { email: `guest-${randomUUID()}@example.com` });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<CreatedInvitationDto>();
  };
  const adminInvitation = () => invitationBy(as.admin);

  const cases: Case[] = [
    { name: 'GET the accounts', route: 'GET /admin-service/users', user: ADMIN_ONLY, call: (b) => b.get('/admin-service/users') },
    {
      name: 'GET one account',
      route: 'GET /admin-service/users/:id',
      user: ADMIN_ONLY,
      call: (b) => b.get(`/admin-service/users/${userId}`),
    },
    {
      name: "PATCH an account's quota",
      route: 'PATCH /admin-service/users/:id',
      user: ADMIN_ONLY,
      call: async (b) => b.patch(`/admin-service/users/${(await freshAccount()).id}`, { quotaBytes: 1_000_000 }),
    },
    {
      name: 'DELETE an account',
      route: 'DELETE /admin-service/users/:id',
      user: ADMIN_ONLY,
      call: async (b) => {
        const doomed = await freshAccount();
        return b.delete(`/admin-service/users/${doomed.id}`, { confirmEmail: doomed.email });
      },
    },
    {
      name: 'POST a password reset',
      route: 'POST /admin-service/users/:id/password-reset',
      user: ADMIN_ONLY,
      call: async (b) => b.post(`/admin-service/users/${(await freshAccount()).id}/password-reset`),
    },
    {
      name: 'POST a two-factor reset',
      route: 'POST /admin-service/users/:id/two-factor-reset',
      user: ADMIN_ONLY,
      call: async (b) => {
        const { id } = await freshAccount();
        // Two-factor on, as its own routes would leave it (they are tested in test/two-factor).
        await t.app.database.db
          .insertInto('twoFactor')
          .values({ accountId: id, secretCipher: 'v1.x', enabledAt: 1, lastUsedStep: null, createdAt: 1 })
          .execute();
        return b.post(`/admin-service/users/${id}/two-factor-reset`);
      },
    },
    { name: 'GET the settings', route: 'GET /admin-service/settings', user: ADMIN_ONLY, call: (b) => b.get('/admin-service/settings') },
    {
      name: 'PATCH the settings',
      route: 'PATCH /admin-service/settings',
      user: ADMIN_ONLY,
      call: (b) => b.patch('/admin-service/settings', { trashRetentionDays: 30 }),
    },
    { name: 'GET the overview', route: 'GET /admin-service/overview', user: ADMIN_ONLY, call: (b) => b.get('/admin-service/overview') },
    {
      name: 'POST an invitation',
      route: 'POST /invitation-service/invitations',
      user: INVITE_NOT_ALLOWED,
      call: (b) => b.post('/invitation-service/invitations', { email: `guest-${randomUUID()}@example.com` }),
    },
    // Every account may list the invitations it sent; an administrator's are not among a user's (below).
    {
      name: 'GET the invitations',
      route: 'GET /invitation-service/invitations',
      user: 'ok',
      call: (b) => b.get('/invitation-service/invitations'),
    },
    {
      name: "POST resend of an administrator's invitation",
      route: 'POST /invitation-service/invitations/:id/resend',
      user: INVITE_NOT_ALLOWED,
      call: async (b) => b.post(`/invitation-service/invitations/${(await adminInvitation()).invitation.id}/resend`),
    },
    {
      name: "DELETE an administrator's invitation",
      route: 'DELETE /invitation-service/invitations/:id',
      // Another account's invitation is unknown to a user, setting or not.
      user: { status: 404, code: 'INVITATION_NOT_FOUND' },
      call: async (b) => b.delete(`/invitation-service/invitations/${(await adminInvitation()).invitation.id}`),
    },
  ];

  const expected = (c: Case, caller: Caller): Answer => {
    if (caller === 'signedOut' || caller === 'disabled') return SIGNED_OUT;
    return caller === 'admin' ? 'ok' : c.user;
  };

  for (const c of cases) {
    it(c.name, async () => {
      for (const caller of CALLERS) {
        const answer = await c.call(as[caller]);
        const want = expected(c, caller);
        if (want === 'ok') expect(answer.statusCode, `${caller}: ${answer.body}`).toBeLessThan(300);
        else {
          expect(answer.statusCode, `${caller}: ${answer.body}`).toBe(want.status);
          if (want.code) expect(answer.json<{ code: string }>().code, caller).toBe(want.code);
        }
      }
    });
  }

  it('opens an invitation link to anyone holding it, signed in or not, disabled or not', async () => {
    const token = (await adminInvitation()).link!.split('/').pop()!;
    for (const caller of CALLERS) {
      const answer = await as[caller].get(`/invitation-service/public/${token}`);
      expect(answer.statusCode, `${caller}: ${answer.body}`).toBe(200);
    }
    expect((await as.signedOut.get(`/invitation-service/public/${'x'.repeat(43)}`)).statusCode).toBe(404);
  });

  it("lists a user's own invitations only, never an administrator's", async () => {
    const sent = await adminInvitation();
    const seen = (await as.user.get('/invitation-service/invitations')).json<{ id: string }[]>().map((i) => i.id);
    expect(seen).not.toContain(sent.invitation.id);
    expect((await as.admin.get('/invitation-service/invitations')).json<{ id: string }[]>().map((i) => i.id)).toContain(sent.invitation.id);
  });

  describe('with usersMayInvite on', () => {
    beforeAll(async () => {
      expect((await as.admin.patch('/admin-service/settings', { usersMayInvite: true })).statusCode).toBe(200);
    });
    afterAll(async () => {
      await as.admin.patch('/admin-service/settings', { usersMayInvite: false });
    });

    it("a user invites, resends and revokes their own invitations, and an administrator's stay unknown to them", async () => {
      const own = await invitationBy(as.user);
      expect((await as.user.post(`/invitation-service/invitations/${own.invitation.id}/resend`)).statusCode).toBe(200);
      expect((await as.user.delete(`/invitation-service/invitations/${own.invitation.id}`)).statusCode).toBe(204);
      const others = await adminInvitation();
      for (const answer of [
        await as.user.post(`/invitation-service/invitations/${others.invitation.id}/resend`),
        await as.user.delete(`/invitation-service/invitations/${others.invitation.id}`),
      ]) {
        expect(answer.statusCode, answer.body).toBe(404);
        expect(answer.json<{ code: string }>().code).toBe('INVITATION_NOT_FOUND');
      }
      // The administrator reaches every invitation, the user's included.
      expect(
        (await as.admin.post(`/invitation-service/invitations/${(await invitationBy(as.user)).invitation.id}/resend`)).statusCode,
      ).toBe(200);
    });

    it('the admin area stays closed to the user', async () => {
      expect((await as.user.get('/admin-service/settings')).json<{ code: string }>().code).toBe('ADMIN_ONLY');
    });
  });

  it('has a case for every admin and invitation route', () => {
    const registered = t.app.apiRoutes
      .filter((r) => FAMILIES.some((family) => r.url.startsWith(family)))
      .map((r) => `${r.method} ${r.url}`)
      // A HEAD twin answers as its GET does; the visitor's link is the test above.
      .filter((r) => !r.startsWith('HEAD ') && r !== 'GET /invitation-service/public/:token');
    const covered = new Set(cases.map((c) => c.route));
    expect(registered.filter((r) => !covered.has(r))).toEqual([]);
    expect([...covered].filter((r) => !registered.includes(r))).toEqual([]);
  });
});
