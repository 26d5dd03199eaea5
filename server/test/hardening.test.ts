import { isEmailFormatValid } from '@nimbus/common';
import { createServer, type Server } from 'node:http';
import { stat } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { sanitizeName } from '../src/domain/names.js';
import { UrlRedaction } from '../src/http/plugins/request-log.js';
import { RemoteEmbeddingProvider } from '../src/search/embed/remote.js';
import { dummyPasswordHash, hashingLoad, verifyPassword } from '../src/security/password.js';

describe('names', () => {
  it('drops bidirectional overrides and invisible marks that disguise a name', () => {
    expect(sanitizeName('\u202egnp.exe')).toBe('gnp.exe');
    expect(sanitizeName('in\u200bvoice\u2066.pdf\u2069')).toBe('invoice.pdf');
    expect(sanitizeName('report\u200e.txt\ufeff')).toBe('report.txt');
    expect(sanitizeName('عربي.txt')).toBe('عربي.txt');
  });
});

describe('e-mail addresses', () => {
  it('refuses mail syntax that a mailer would read as names, groups or lists', () => {
    for (const address of [
      'x<evil@attacker.test>',
      'a:evil@attacker.test;',
      'x@host.example.com,evil',
      '"a"@example.com',
      'a(b)@example.com',
    ]) {
      expect(isEmailFormatValid(address), address).toBe(false);
    }
    expect(isEmailFormatValid('first.last+tag@example.co.uk')).toBe(true);
  });
});

describe('logged URLs', () => {
  it('keep the route of share links and e-mailed links, never their token', () => {
    const redaction = new UrlRedaction(['/file-service/public/download/:id/:token', '/file-service/public/info/:id/:token']);
    const redactUrl = (url: string) => redaction.redact(url);
    expect(redactUrl('/file-service/public/download/abc/SECRET123?x=1')).toBe('/file-service/public/download/abc/[redacted]?x=1');
    expect(redactUrl('/file-service/public/info/abc/SECRET123')).toBe('/file-service/public/info/abc/[redacted]');
    expect(redactUrl('/public-download/abc/SECRET123')).toBe('/public-download/abc/[redacted]');
    expect(redactUrl('/reset-password/SECRET123')).toBe('/reset-password/[redacted]');
    expect(redactUrl('/file-service/list?parent=%2F')).toBe('/file-service/list?parent=%2F');
  });
});

describe('password hashing', () => {
  it('computes at most two hashes at once, however many logins arrive', async () => {
    const dummy = await dummyPasswordHash();
    const checks = Array.from({ length: 8 }, () => verifyPassword('guess', dummy));
    const load = hashingLoad();
    expect(load.active).toBeLessThanOrEqual(2);
    expect(load.active + load.pending).toBe(8);
    expect(await Promise.all(checks)).toEqual(Array(8).fill(false));
  });
});

describe('data directory', () => {
  it('is created private, and so are the database and the generated secrets', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'nimbus-perms-'));
    const config = loadConfig({ DATA_DIR: 'data' }, parent);
    const mode = async (p: string) => (await stat(p)).mode & 0o777;
    expect(await mode(config.dataDir)).toBe(0o700);
    expect(await mode(path.join(config.dataDir, 'secrets.json'))).toBe(0o600);
    const db = openDatabase(config.db);
    await db.db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
    expect(await mode(path.join(config.dataDir, 'nimbus.sqlite'))).toBe(0o600);
    await db.close();
  });

  it('reads TRUST_PROXY as off, on, a hop count or a list of addresses', async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'nimbus-trust-'));
    expect(loadConfig({}, cwd).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }, cwd).http.trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }, cwd).http.trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }, cwd).http.trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' }, cwd)).toThrow(/TRUST_PROXY/);
  });
});

describe('the remote embeddings endpoint', () => {
  let server: Server;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is never followed to where it redirects, so the API key stays with it', async () => {
    const seen: string[] = [];
    server = createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization ?? ''}`);
      if (req.url?.startsWith('/v1')) res.writeHead(307, { location: '/elsewhere/embeddings' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ index: 0, embedding: [1] }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const sut = new RemoteEmbeddingProvider({ url: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: 'secret-key' });
    await expect(sut.embed(['a'])).rejects.toThrow();
    expect(seen).toEqual(['/v1/embeddings Bearer secret-key']);
  });
});
