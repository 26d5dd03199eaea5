import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { SessionTokenSigner } from '../src/security/access-token.js';

const KEY = 'k'.repeat(48);
const TTL = 20 * 60_000;
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const claims = { accountId: 'acc1', sessionId: 'ses1' };

describe('SessionTokenSigner', () => {
  const sut = SessionTokenSigner.fromSecret(KEY, TTL);

  it('signs HS256 tokens naming the account and session, valid for 20 minutes', async () => {
    const token = await sut.sign(claims, NOW);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256' });
    expect(decodeJwt(token)).toEqual({ sub: 'acc1', sid: 'ses1', iat: NOW / 1000, exp: (NOW + TTL) / 1000 });
    expect(await sut.verify(token, NOW)).toEqual(claims);
    expect(await sut.verify(token, NOW + TTL - 1000)).toEqual(claims);
  });

  it('refuses an expired token', async () => {
    const token = await sut.sign(claims, NOW);
    expect(await sut.verify(token, NOW + TTL)).toBeNull();
    expect(await sut.verify(token, NOW + TTL + 60_000)).toBeNull();
  });

  it('remembers a verified token for its lifetime only, and never one that failed', async () => {
    const signer = SessionTokenSigner.fromSecret(KEY, TTL);
    const token = await signer.sign(claims, NOW);
    expect(await signer.verify(token, NOW)).toEqual(claims);
    expect(await signer.verify(token, NOW + 1000)).toEqual(claims);
    expect(await signer.verify(token, NOW + TTL)).toBeNull();
    const forged = `${token.slice(0, -2)}xx`;
    expect(await signer.verify(forged, NOW)).toBeNull();
    expect(await signer.verify(forged, NOW)).toBeNull();
  });

  it('refuses a token signed with another key', async () => {
    const token = await SessionTokenSigner.fromSecret('o'.repeat(48), TTL).sign(claims, NOW);
    expect(await sut.verify(token, NOW)).toBeNull();
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = (await sut.sign(claims, NOW)).split('.');
    const payload = Buffer.from(JSON.stringify({ sub: 'someone-else', sid: 'ses1', iat: NOW / 1000, exp: (NOW + TTL) / 1000 })).toString(
      'base64url',
    );
    expect(await sut.verify(`${header}.${payload}.${signature}`, NOW)).toBeNull();
  });

  it('refuses unsigned tokens ("alg": "none")', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: 'acc1', sid: 'ses1', exp: NOW / 1000 + 600 })).toString('base64url');
    expect(await sut.verify(`${header}.${payload}.`, NOW)).toBeNull();
  });

  it('refuses a well-signed token without the session claim', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('acc1')
      .setExpirationTime(NOW / 1000 + 600)
      .sign(new TextEncoder().encode(KEY));
    expect(await sut.verify(token, NOW)).toBeNull();
  });

  it.each(['', 'garbage', 'a.b.c', '\u0000'])('returns null for %j', async (token) => {
    expect(await sut.verify(token, NOW)).toBeNull();
  });
});

describe('tokens of another audience', () => {
  it('are never taken for an access token, and the reverse', async () => {
    const key = new TextEncoder().encode('k'.repeat(48));
    const access = new SessionTokenSigner(key, 60_000);
    const stream = new SessionTokenSigner(key, 60_000, 'stream-video');
    const claims = { accountId: 'a', sessionId: 's' };
    expect(await access.verify(await stream.sign(claims, 1_000), 1_000)).toBeNull();
    expect(await stream.verify(await access.sign(claims, 1_000), 1_000)).toBeNull();
    expect(await stream.verify(await stream.sign(claims, 1_000), 1_000)).toEqual(claims);
  });
});
