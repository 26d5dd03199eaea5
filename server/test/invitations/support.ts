import type { CreatedInvitationDto, InvitationDto, ServerSettingsDto } from '@nimbus/common';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import type { TestBrowser } from '../helpers/test-browser.js';
import { startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';

export { expectError, uniqueEmail, HOUR, MINUTE } from '../users/support.js';
export const DAY = 24 * 60 * 60_000;

export const INVITE_PREFIX = 'http://localhost:3000/invite/';

export interface InvitationsHarness extends UsersHarness {
  /** The first account of the server, so its administrator. */
  admin: TestBrowser;
  adminEmail: string;
}

/** A server with its administrator signed in, optionally mailing to a real SMTP receiver. */
export async function startInvitationsApp(options: Parameters<typeof startUsersApp>[0] = {}): Promise<InvitationsHarness> {
  const h = await startUsersApp(options);
  const admin = h.browser();
  const adminEmail = uniqueEmail('admin');
  // A closed server takes no first account either: its administrator signs up while the setting opens sign-up.
  const closed = options.config?.signup === 'closed';
  if (closed) await setSetting(h.app, 'signup', 'open');
  await admin.signUp(adminEmail);
  if (closed) await h.app.database.db.deleteFrom('serverSetting').where('key', '=', 'signup').execute();
  return Object.assign(h, { admin, adminEmail });
}

/** Moves the test clock on, and keeps the administrator's session alive across it (as the web app refreshes it). */
export async function passTime(h: InvitationsHarness, ms: number): Promise<void> {
  h.clock.advance(ms);
  const refreshed = await h.admin.post('/user-service/get-token');
  expect(refreshed.statusCode, refreshed.body).toBe(200);
}

/** Changes a server setting as the admin area does (straight into its table: the admin routes are another module's). */
export async function setSetting<K extends keyof ServerSettingsDto>(
  app: FastifyInstance,
  key: K,
  value: ServerSettingsDto[K],
): Promise<void> {
  await app.database.db
    .insertInto('serverSetting')
    .values({ key, value: JSON.stringify(value), updatedAt: Date.now() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
    .execute();
}

export async function invite(browser: TestBrowser, email: string): Promise<CreatedInvitationDto> {
  const response = await browser.post('/invitation-service/invitations', { email });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedInvitationDto>();
}

export function tokenOf(link: string): string {
  expect(link.startsWith(INVITE_PREFIX)).toBe(true);
  return link.slice(INVITE_PREFIX.length);
}

/** The token of the invitation mailed to `email` after `since` messages. */
export async function mailedToken(smtp: SmtpReceiver, email: string, since: number): Promise<string> {
  return tokenOf(SmtpReceiver.link(await smtp.next(email, since), INVITE_PREFIX));
}

export function signUpWith(browser: TestBrowser, email: string, invitation: string, password = 'secret1'): Promise<LightMyRequestResponse> {
  return browser.post('/user-service/create', { email, password, invitation });
}

export async function listInvitations(browser: TestBrowser): Promise<InvitationDto[]> {
  const response = await browser.get('/invitation-service/invitations');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<InvitationDto[]>();
}
