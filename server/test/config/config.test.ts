import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const HEX_KEY = 'ab'.repeat(32);
const B64_KEY = Buffer.alloc(32, 7).toString('base64');
const SECRET = 's'.repeat(32);

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(path.join(os.tmpdir(), 'nimbus-config-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

/** The problems a ConfigError lists, or a failure when the config loads. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, cwd);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({}, cwd);
    expect(config.http).toEqual({
      port: 3000,
      host: '0.0.0.0',
      appUrl: 'http://localhost:3000',
      secureCookies: false,
      trustProxy: false,
      bodyTimeoutMs: 60_000,
      idleTimeoutMs: 300_000,
    });
    expect(config.accountRateLimit).toBe(30);
    expect(config.passwordHashCost).toBe(15);
    expect(loadConfig({ PASSWORD_HASH_COST: '12' }, cwd).passwordHashCost).toBe(12);
    expect(config.dataDir).toBe(path.join(cwd, 'data'));
    expect(config.db).toEqual({ driver: 'sqlite', path: path.join(cwd, 'data', 'nimbus.sqlite') });
    expect(config.storage).toEqual({ driver: 'fs', root: path.join(cwd, 'data', 'files') });
    expect(config.mail).toBeNull();
    expect(config.signup).toBe('open');
    expect(config.trashRetentionDays).toBe(30);
    expect(config.maxUploadBytes).toBeNull();
    expect(config.logLevel).toBe('info');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable of the table', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: 'var/nimbus',
        DATABASE_URL: 'postgres://nimbus@db:5432/nimbus',
        STORAGE: 's3',
        S3_BUCKET: 'drive',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        APP_URL: 'https://drive.example.com/',
        SMTP_URL: 'smtp://user:pass@mail:587',
        MAIL_FROM: 'Nimbus <drive@example.com>',
        SECRET_KEY: SECRET,
        ENCRYPTION_KEY: HEX_KEY,
        SIGNUP: 'closed',
        TRASH_RETENTION_DAYS: '0',
        MAX_UPLOAD_BYTES: '1048576',
      },
      cwd,
    );
    expect(config.http).toMatchObject({ port: 8080, host: '127.0.0.1', appUrl: 'https://drive.example.com', secureCookies: true });
    expect(config.dataDir).toBe(path.join(cwd, 'var/nimbus'));
    expect(config.db).toEqual({ driver: 'postgres', url: 'postgres://nimbus@db:5432/nimbus' });
    expect(config.storage).toEqual({
      driver: 's3',
      bucket: 'drive',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(config.mail).toEqual({ smtpUrl: 'smtp://user:pass@mail:587', from: 'Nimbus <drive@example.com>' });
    expect(config.secrets).toEqual({ secretKey: SECRET, encryptionKey: Buffer.from(HEX_KEY, 'hex') });
    expect(config.signup).toBe('closed');
    expect(config.trashRetentionDays).toBe(0);
    expect(config.maxUploadBytes).toBe(1048576);
  });

  it('takes SIGNUP=invite', () => {
    expect(loadConfig({ SIGNUP: 'invite' }, cwd).signup).toBe('invite');
  });

  it('treats a variable set to nothing as unset', () => {
    const config = loadConfig({ PORT: '', HOST: ' ', TRASH_RETENTION_DAYS: '', SMTP_URL: '', APP_URL: '', MAX_UPLOAD_BYTES: '' }, cwd);
    expect(config.http.port).toBe(3000);
    expect(config.http.host).toBe('0.0.0.0');
    expect(config.trashRetentionDays).toBe(30);
    expect(config.mail).toBeNull();
    expect(config.maxUploadBytes).toBeNull();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '1e3'],
    ['PORT', '-1'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://db/nimbus'],
    ['STORAGE', 'ftp'],
    ['S3_ENDPOINT', 'not a url'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
    ['APP_URL', 'drive.example.com'],
    ['APP_URL', 'ftp://drive.example.com'],
    ['SMTP_URL', 'http://mail'],
    ['SECRET_KEY', 'too-short'],
    ['ENCRYPTION_KEY', 'not-32-bytes'],
    ['SIGNUP', 'maybe'],
    ['TRASH_RETENTION_DAYS', '-3'],
    ['TRASH_RETENTION_DAYS', '1.5'],
    ['MAX_UPLOAD_BYTES', '0'],
    ['MAX_UPLOAD_BYTES', 'lots'],
    ['PASSWORD_HASH_COST', '9'],
    ['PASSWORD_HASH_COST', '21'],
    ['PASSWORD_HASH_COST', 'high'],
  ])('reports %s=%j by name', (name, value) => {
    // A bad DATABASE_URL or SMTP_URL also brings up the variables it requires.
    expect(problemsOf({ [name]: value })[0]).toMatch(new RegExp(`^${name}: `));
  });

  it('reports several problems at once, rules between variables included', () => {
    const problems = problemsOf({ PORT: 'x', SIGNUP: 'maybe', STORAGE: 's3', SMTP_URL: 'smtp://mail', APP_URL: 'nope' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['APP_URL', 'MAIL_FROM', 'PORT', 'S3_BUCKET', 'SIGNUP']);
  });

  it('reads the optional caption model, and wants its name with its URL', () => {
    expect(loadConfig({}, cwd).search.captions).toBeNull();
    expect(
      loadConfig({ CAPTIONS_URL: 'http://localhost:11434/v1', CAPTIONS_MODEL: 'llava', CAPTIONS_API_KEY: 'k' }, cwd).search.captions,
    ).toEqual({ url: 'http://localhost:11434/v1', model: 'llava', apiKey: 'k' });
    expect(problemsOf({ CAPTIONS_URL: 'http://localhost:11434/v1' })).toEqual([expect.stringMatching(/^CAPTIONS_MODEL: required/)]);
    expect(problemsOf({ CAPTIONS_URL: 'ftp://x', CAPTIONS_MODEL: 'llava' })).toEqual([expect.stringMatching(/^CAPTIONS_URL: /)]);
  });

  it('reads the image–text model, its folder and its hub, and turns it off', () => {
    expect(loadConfig({}, cwd).search.smartModel).toEqual({
      id: 'Xenova/clip-vit-base-patch32',
      revision: 'main',
      dir: path.join(cwd, 'data', 'models'),
      hubUrl: 'https://huggingface.co',
    });
    expect(
      loadConfig({ SMART_SEARCH_MODEL: 'org/mobile-clip_s0@v1.2', MODELS_DIR: 'models', MODELS_URL: 'http://mirror.lan/hf/' }, cwd).search
        .smartModel,
    ).toEqual({ id: 'org/mobile-clip_s0', revision: 'v1.2', dir: path.join(cwd, 'models'), hubUrl: 'http://mirror.lan/hf' });
    expect(loadConfig({ SMART_SEARCH_MODEL: 'off' }, cwd).search.smartModel).toBeNull();
  });

  it.each([
    'clip',
    'a/b/c',
    'owner/na me',
    'owner/name@',
    '/name',
    'owner/',
    'OFF ',
    'owner/name@rev@rev',
    'x'.repeat(300),
    '../x',
    'owner/..',
    './name',
    'owner/name@../x',
    'owner/name@main/..',
  ])('refuses SMART_SEARCH_MODEL=%s', (value) => {
    expect(problemsOf({ SMART_SEARCH_MODEL: value })).toEqual([expect.stringMatching(/^SMART_SEARCH_MODEL: /)]);
  });

  it('refuses a MODELS_URL that is not http(s)', () => {
    expect(problemsOf({ MODELS_URL: 'file:///models' })).toEqual([expect.stringMatching(/^MODELS_URL: /)]);
    expect(problemsOf({ MODELS_URL: 'not a url' })).toEqual([expect.stringMatching(/^MODELS_URL: /)]);
  });

  it('puts every problem in the error message', () => {
    expect(() => loadConfig({ PORT: 'x', SIGNUP: 'maybe' }, cwd)).toThrow(/PORT: .*\n.*SIGNUP: /);
  });

  it('requires SECRET_KEY and ENCRYPTION_KEY with DATABASE_URL, since several servers share them', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres://db/nimbus' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['ENCRYPTION_KEY', 'SECRET_KEY']);
    expect(problemsOf({ DATABASE_URL: 'postgres://db/nimbus', SECRET_KEY: SECRET })).toEqual([expect.stringMatching(/^ENCRYPTION_KEY: /)]);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/nimbus', SECRET_KEY: SECRET, ENCRYPTION_KEY: B64_KEY }, cwd).secrets).toEqual({
      secretKey: SECRET,
      encryptionKey: Buffer.alloc(32, 7),
    });
  });

  it('without DATABASE_URL generates the secrets once into DATA_DIR and reuses them', () => {
    const first = loadConfig({ DATA_DIR: 'd' }, cwd).secrets;
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(first.encryptionKey).toHaveLength(32);
    const file = path.join(cwd, 'd', 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.join(cwd, 'd'))).toEqual(['secrets.json']);
    expect(loadConfig({ DATA_DIR: 'd' }, cwd).secrets).toEqual(first);
    // Another data directory gets its own.
    expect(loadConfig({ DATA_DIR: 'other' }, cwd).secrets.secretKey).not.toBe(first.secretKey);
  });

  it('lets a variable override one generated secret and keeps the other', () => {
    const generated = loadConfig({}, cwd).secrets;
    const config = loadConfig({ SECRET_KEY: SECRET }, cwd);
    expect(config.secrets).toEqual({ secretKey: SECRET, encryptionKey: generated.encryptionKey });
  });

  it('refuses to start on a damaged secrets file instead of replacing the key', () => {
    loadConfig({}, cwd);
    const file = path.join(cwd, 'data', 'secrets.json');
    writeFileSync(file, '{ not json');
    expect(problemsOf({})).toEqual([expect.stringMatching(/^DATA_DIR: .*secrets\.json is damaged/)]);
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });

  it('reports a DATA_DIR that cannot be created', () => {
    writeFileSync(path.join(cwd, 'a-file'), '');
    expect(problemsOf({ DATA_DIR: 'a-file/data' })).toEqual([expect.stringMatching(/^DATA_DIR: cannot create/)]);
  });
});
