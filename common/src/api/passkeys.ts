import { z } from 'zod';

export const PASSKEY_LIMITS = {
  /** Passkeys per account: every device and security key of one person, on one screen. */
  maxPerAccount: 20,
  maxNameLength: 100,
  /** A ceremony's challenge is answered within this long, once. */
  challengeMs: 5 * 60_000,
} as const;

/** A passkey as listed in Settings; never its key. */
export interface PasskeyDto {
  id: string;
  name: string;
  /** ISO 8601. */
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced by its provider (iCloud Keychain, Google Password Manager), so it survives losing the device. */
  backedUp: boolean;
}

/** What the passkey is called, e.g. "Laptop" or "YubiKey". */
export const passkeyNameBody = z.object({
  name: z
    .string()
    .max(PASSKEY_LIMITS.maxNameLength)
    .transform((v) => v.trim())
    .pipe(z.string().min(1, 'Please Enter a Name')),
});

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

/**
 * The browser's answers as @simplewebauthn/browser encodes them. Only their shape and size are
 * checked here; what they prove is checked by @simplewebauthn/server.
 */
const credentialFields = {
  id: base64url(1024).min(1),
  rawId: base64url(1024).min(1),
  type: z.literal('public-key'),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

export const registrationResponse = z.object({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16384),
    transports: z.array(z.string().max(32)).max(16).optional(),
  }),
});

export const authenticationResponse = z.object({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(2048),
    userHandle: base64url(512).optional(),
  }),
});

export const registerPasskeyBody = passkeyNameBody.extend({ response: registrationResponse });
export type RegisterPasskeyBody = z.infer<typeof registerPasskeyBody>;

export const passkeySignInBody = z.object({ response: authenticationResponse });

/** Second step of a sign-in with a password: the ticket of `POST /user-service/login`'s 202. */
export const passkeyTicketBody = z.object({ ticket: z.string().min(1).max(256) });
export const passkeySecondFactorBody = passkeyTicketBody.extend({ response: authenticationResponse });
