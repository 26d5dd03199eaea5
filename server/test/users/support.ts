import type { ApiErrorBody, ErrorCode } from '@nimbus/common';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import type { Clock } from '../../src/services/clock.js';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

/** A clock that stands still until a test moves it, so expiry and cooldowns need no sleeping. */
export class TestClock implements Clock {
  private current = Date.now();

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

export interface UsersHarness extends TestApp {
  clock: TestClock;
  /** The SMTP receiver the server sends to, when started with `mail: true`. */
  smtp: SmtpReceiver | null;
  browser(): TestBrowser;
}

/** The whole server on a fresh database with a test clock, optionally mailing to a real SMTP receiver. */
export async function startUsersApp(options: { mail?: boolean; config?: Partial<Config> } = {}): Promise<UsersHarness> {
  const clock = new TestClock();
  const smtp = options.mail ? new SmtpReceiver() : null;
  const mail = smtp ? { smtpUrl: await smtp.start(), from: 'Nimbus <nimbus@example.com>' } : null;
  const testApp = await createTestApp({ mail, ...options.config }, { clock });
  return {
    ...testApp,
    clock,
    smtp,
    browser: () => new TestBrowser(testApp.app),
    async close() {
      await testApp.close();
      await smtp?.stop();
    },
  };
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID()}@example.com`;
}

/** Asserts the common error body: `{ code, message }` with the status the code maps to (docs/errors.md). */
export function expectError(response: LightMyRequestResponse, status: number, code?: ErrorCode): ApiErrorBody {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<ApiErrorBody>();
  expect(body).toMatchObject({ error: expect.any(String), code: expect.any(String), requestId: expect.any(String) });
  if (code) expect(body.code).toBe(code);
  return body;
}

/** Row counts of every account table, to show a refused request changed nothing. */
export async function snapshotTables(app: FastifyInstance): Promise<Record<string, unknown[]>> {
  const db = app.database.db;
  return {
    account: await db.selectFrom('account').selectAll().orderBy('id').execute(),
    session: await db.selectFrom('session').selectAll().orderBy('id').execute(),
    accountToken: await db.selectFrom('accountToken').selectAll().orderBy('tokenHash').execute(),
    loginThrottle: await db.selectFrom('loginThrottle').selectAll().orderBy('emailKey').execute(),
  };
}

export async function login(browser: TestBrowser, email: string, password: string): Promise<LightMyRequestResponse> {
  return browser.post('/user-service/login', { email, password });
}
