import { vi } from 'vitest';

const bytes = (text: string): ArrayBuffer => new TextEncoder().encode(text).buffer as ArrayBuffer;

/**
 * The browser's WebAuthn API as jsdom lacks it: `navigator.credentials.create/get` answer with fixed
 * credentials, so @simplewebauthn/browser runs for real in component tests. What the answers prove
 * is the server's to check (server/test/passkeys).
 */
export function installFakeWebAuthn() {
  const create = vi.fn(async (_options: CredentialCreationOptions): Promise<unknown> => ({
    id: 'Y3JlZC0x',
    rawId: bytes('cred-1'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: {
      clientDataJSON: bytes('{"type":"webauthn.create"}'),
      attestationObject: bytes('attestation'),
      getTransports: () => ['internal'],
    },
    getClientExtensionResults: () => ({}),
  }));
  const get = vi.fn(async (_options: CredentialRequestOptions): Promise<unknown> => ({
    id: 'Y3JlZC0x',
    rawId: bytes('cred-1'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: {
      clientDataJSON: bytes('{"type":"webauthn.get"}'),
      authenticatorData: bytes('auth-data'),
      signature: bytes('signature'),
      userHandle: bytes('user-1'),
    },
    getClientExtensionResults: () => ({}),
  }));
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  const previous = Object.getOwnPropertyDescriptor(navigator, 'credentials');
  Object.defineProperty(navigator, 'credentials', { value: { create, get }, configurable: true });
  return {
    create,
    get,
    uninstall() {
      vi.unstubAllGlobals();
      if (previous) Object.defineProperty(navigator, 'credentials', previous);
      else Reflect.deleteProperty(navigator, 'credentials');
    },
  };
}

/** What the user does when the browser asks for a passkey and they cancel. */
export const cancelled = () => new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError');
