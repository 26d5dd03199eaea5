import { z } from 'zod';

/** What the login screen offers besides the password form. */
export const signInOptionsDto = z.object({
  /** Single sign-on through the server's OpenID Connect provider, or null when none is configured. */
  sso: z.object({ label: z.string(), url: z.string() }).nullable(),
});
export type SignInOptionsDto = z.infer<typeof signInOptionsDto>;

/** Why a single sign-on failed: the `sso_error` of the address it returns the browser to. */
export const SSO_ERRORS = [
  'provider_error',
  'invalid_state',
  'unverified_email',
  'unverified_account',
  'signup_closed',
  'account_disabled',
] as const;
export type SsoError = (typeof SSO_ERRORS)[number];

/** The words the login screen shows for each. */
export const SSO_ERROR_MESSAGES: Record<SsoError, string> = {
  provider_error: 'Single sign-on failed: the identity provider could not be reached or refused the sign-in. Try again.',
  invalid_state: 'This single sign-on expired or was already used. Start again.',
  unverified_email: 'Your identity provider has not verified your e-mail address, so it cannot sign you in here.',
  unverified_account: 'An account with this e-mail exists but its address is not verified. Sign in with its password and verify it first.',
  signup_closed: 'There is no account for you here, and sign-up is closed.',
  account_disabled: 'This account is disabled.',
};
