import type { TwoFactorSetupDto } from '@nimbus/common';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { TestBrowser } from '../helpers/test-browser.js';
import type { TestClock } from '../users/support.js';

/** What an authenticator app does with the secret shown: codes for the test clock's time. */
export function codeAt(secret: string, timestamp: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp });
}

/** Turns two-factor on for the browser's account; answers the secret and the recovery codes. */
export async function enableTwoFactor(browser: TestBrowser, clock: TestClock): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await browser.post('/two-factor-service/setup');
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json<TwoFactorSetupDto>();
  const enabled = await browser.post('/two-factor-service/enable', { code: codeAt(secret, clock.now()) });
  expect(enabled.statusCode, enabled.body).toBe(200);
  // The step just used is spent: the next code the test makes is of a later one.
  clock.advance(30_000);
  return { secret, recoveryCodes: enabled.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** The first step of a sign-in for an account with two-factor on: the ticket. */
export async function firstStep(browser: TestBrowser, email: string, password: string): Promise<string> {
  const response = await browser.post('/user-service/login', { email, password });
  expect(response.statusCode, response.body).toBe(202);
  return response.json<{ secondFactor: { ticket: string } }>().secondFactor.ticket;
}
