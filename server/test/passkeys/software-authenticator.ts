import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A WebAuthn authenticator in software, for tests only: an EC P-256 key, attestation "none", and
 * assertions signed over authenticatorData ‖ SHA-256(clientDataJSON), encoded by hand so the server's
 * library checks answers it did not make itself.
 */

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/** The few CBOR items a COSE key and an attestation object need. */
function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
}
const cborBytes = (bytes: Uint8Array): Buffer => Buffer.concat([cborHead(2, bytes.length), bytes]);
const cborText = (text: string): Buffer => Buffer.concat([cborHead(3, Buffer.byteLength(text)), Buffer.from(text)]);
const cborInt = (n: number): Buffer => (n >= 0 ? cborHead(0, n) : cborHead(1, -1 - n));

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface Ceremony {
  origin?: string;
  rpId?: string;
  type?: string;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  counter = 0;

  constructor(
    /** The account id the server put in `user.id`, returned as userHandle. */
    public userHandle: string,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const x = Buffer.from(jwk.x!, 'base64url');
    const y = Buffer.from(jwk.y!, 'base64url');
    // {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}
    return Buffer.concat([
      cborHead(5, 5),
      cborInt(1),
      cborInt(2),
      cborInt(3),
      cborInt(-7),
      cborInt(-1),
      cborInt(1),
      cborInt(-2),
      cborBytes(x),
      cborInt(-3),
      cborBytes(y),
    ]);
  }

  private authData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to registration options (`navigator.credentials.create`), as @simplewebauthn/browser sends it. */
  register(challenge: string, ceremony: Ceremony = {}) {
    const rpId = ceremony.rpId ?? 'localhost';
    const idLength = Buffer.from([this.credentialId.length >> 8, this.credentialId.length & 0xff]);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const authData = this.authData(rpId, FLAG_UP | FLAG_UV | FLAG_AT, attested);
    const attestationObject = Buffer.concat([
      cborHead(5, 3),
      cborText('fmt'),
      cborText('none'),
      cborText('attStmt'),
      cborHead(5, 0),
      cborText('authData'),
      cborBytes(authData),
    ]);
    const clientDataJSON = this.clientData(ceremony.type ?? 'webauthn.create', challenge, ceremony.origin ?? 'http://localhost:3000');
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
    };
  }

  /** The answer to authentication options (`navigator.credentials.get`); each one moves the counter forward. */
  assert(challenge: string, ceremony: Ceremony & { counter?: number; forge?: boolean } = {}) {
    this.counter = ceremony.counter ?? this.counter + 1;
    const authData = this.authData(ceremony.rpId ?? 'localhost', FLAG_UP | FLAG_UV);
    const clientDataJSON = this.clientData(ceremony.type ?? 'webauthn.get', challenge, ceremony.origin ?? 'http://localhost:3000');
    let signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    if (ceremony.forge)
      signature = sign(
        'sha256',
        Buffer.concat([authData, sha256(clientDataJSON)]),
        generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
      );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: b64url(Buffer.from(this.userHandle)),
      },
    };
  }
}
