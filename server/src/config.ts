import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SIGNUP_MODES, type SignupMode } from '@nimbus/common';
import { z } from 'zod';
import { DEFAULT_PASSWORD_HASH_COST } from './security/password.js';

export type DatabaseConfig = { driver: 'sqlite'; path: string } | { driver: 'postgres'; url: string };

export type StorageConfig =
  | { driver: 'fs'; root: string }
  | {
      driver: 's3';
      bucket: string;
      endpoint?: string;
      region: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle: boolean;
    };

export interface MailConfig {
  smtpUrl: string;
  from: string;
}

export interface SearchConfig {
  /** SEMANTIC_SEARCH=off: no indexing, and AI search answers nothing. */
  enabled: boolean;
  /** An OpenAI-compatible embeddings endpoint; null uses the bundled local model. */
  embeddings: { url: string; model: string; apiKey?: string } | null;
  /** An OpenAI-compatible chat endpoint with a vision model that captions photos; null: none. */
  captions?: { url: string; model: string; apiKey?: string } | null;
  /** The image–text (CLIP-family) model; null (SMART_SEARCH_MODEL=off) keeps to the bundled pipeline. */
  smartModel?: SmartModelConfig | null;
}

/** Where the image–text model comes from and where its files are kept. */
export interface SmartModelConfig {
  /** The model hub's repository, such as `Xenova/clip-vit-base-patch32`. */
  id: string;
  /** The hub revision (branch, tag or commit) its files are taken from. */
  revision: string;
  /** MODELS_DIR: the model's files are in `<dir>/<id>`; copying that folder serves an offline server. */
  dir: string;
  /** MODELS_URL: the hub, or a mirror laid out like it. */
  hubUrl: string;
}

/** A small CLIP model that runs on one CPU core (int8 weights, 224-pixel input). */
export const DEFAULT_SMART_SEARCH_MODEL = 'Xenova/clip-vit-base-patch32';
export const DEFAULT_MODELS_URL = 'https://huggingface.co';

export interface HttpConfig {
  port: number;
  host: string;
  appUrl: string;
  secureCookies: boolean;
  /**
   * Which proxies' X-Forwarded-For to believe for the client's address (rate limits, logs):
   * false (the socket's peer), true (any), a hop count, or addresses/CIDRs.
   */
  trustProxy: boolean | number | string[];
  /** A request body (JSON) must arrive whole within this; uploads are exempt and use the idle timeout. */
  bodyTimeoutMs: number;
  /** A connection with no traffic either way for this long is closed. */
  idleTimeoutMs: number;
}

/** Single sign-on through an OpenID Connect provider (authorization code flow with PKCE). */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The login screen's button. */
  buttonLabel: string;
}

export interface IntegrityConfig {
  /** Between background scrub batches; 0 turns the scrub off. */
  scrubIntervalMs: number;
  /** Files verified per scrub batch. */
  scrubBatchSize: number;
  /** Bearer token of GET /health/details; null answers that route 404. */
  healthToken: string | null;
}

export interface Config {
  http: HttpConfig;
  logLevel: string;
  dataDir: string;
  db: DatabaseConfig;
  storage: StorageConfig;
  mail: MailConfig | null;
  secrets: { secretKey: string; encryptionKey: Buffer };
  /** Who may sign up unless an administrator chose otherwise in the admin area. */
  signup: SignupMode;
  /** Per client address and hour: sign-ups, reset e-mails and reset attempts; 0 turns the limit off. */
  accountRateLimit: number;
  trashRetentionDays: number;
  /** Optional so configs built in code (tests) need not name it: absent means the defaults (50 per file, half the quota). */
  versions?: VersionsConfig;
  maxUploadBytes: number | null;
  /** Bytes one account may store (trash included); null for no limit. */
  storageQuotaBytes: number | null;
  /** An unfinished resumable upload untouched this long is deleted with its bytes. */
  resumableUploadExpiryHours: number;
  search: SearchConfig;
  /** Built web app to serve, or null when there is none (API only). */
  webRoot: string | null;
  /** Optional so configs built in code (tests) need not name it: absent means no scrub and no details route. */
  integrity?: IntegrityConfig;
  /** Bearer token of `GET /metrics`; unset (the default) turns metrics off and the route answers 404. */
  metricsToken?: string | null;
  /** log2 of scrypt's N for new password hashes; absent means the default (15). */
  passwordHashCost?: number;
  /** Absent or null: no single sign-on, and the login screen is the password form alone. */
  oidc?: OidcConfig | null;
  /** Optional so configs built in code (tests) need not name it: absent means the defaults. */
  video?: VideoConfig;
}

/** Playable renditions of videos browsers cannot play (HEVC, MKV, AVI…). */
export interface VideoConfig {
  /** VIDEO_TRANSCODE: false leaves every video as stored (the player offers the download when it cannot play one). */
  transcode: boolean;
  /** The rendition's shorter side at most, in pixels. */
  maxHeight: number;
  /** ffmpeg threads per rendition. */
  threads: number;
}

export const DEFAULT_VIDEO: VideoConfig = { transcode: true, maxHeight: 1080, threads: 1 };

/** How many earlier contents of a file are kept (see docs/versions.md). */
export interface VersionsConfig {
  /** At most this many versions per file; 0 keeps none. */
  maxPerFile: number;
  /** Versions never take more than this share (0–1) of an account's quota. */
  maxShareOfQuota: number;
}

export const DEFAULT_VERSIONS: VersionsConfig = { maxPerFile: 50, maxShareOfQuota: 0.5 };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const boolean = z.enum(['true', 'false', '1', '0'], 'must be true, false, 1 or 0').transform((v) => v === 'true' || v === '1');
const text = z.string().transform((v) => v.trim());
// Plain decimal digits only: Number() would also take '1e3' or '0x50'.
const integer = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
const url = (protocols: string[], hint: string) => text.refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol), hint);

const envSchema = z.object({
  PORT: integer(0, 65535).default(3000),
  HOST: text.default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: text.default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:'], 'must be a postgres:// URL').optional(),
  STORAGE: z.enum(['fs', 's3']).default('fs'),
  S3_BUCKET: text.optional(),
  S3_ENDPOINT: url(['http:', 'https:'], 'must be an http(s) URL').optional(),
  S3_REGION: text.default('us-east-1'),
  S3_ACCESS_KEY_ID: text.optional(),
  S3_SECRET_ACCESS_KEY: text.optional(),
  S3_FORCE_PATH_STYLE: boolean.default(false),
  APP_URL: url(['http:', 'https:'], 'must be an http(s) URL such as https://drive.example.com').optional(),
  SMTP_URL: url(['smtp:', 'smtps:'], 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: text.optional(),
  SECRET_KEY: text.refine((v) => v.length >= 32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: text.refine((v) => parseKey(v) !== null, 'must be 32 bytes as 64 hex digits or base64').optional(),
  SIGNUP: z.enum(SIGNUP_MODES).default('open'),
  ACCOUNT_RATE_LIMIT: integer(0, 1_000_000).default(30),
  TRUST_PROXY: text
    .refine(
      (v) => /^(true|false|\d+|[0-9a-fA-F.:/]+(,\s*[0-9a-fA-F.:/]+)*)$/.test(v),
      'must be true, false, a hop count or a list of addresses/CIDRs',
    )
    .optional(),
  TRASH_RETENTION_DAYS: integer(0, 36500).default(30),
  VERSIONS_MAX: integer(0, 10_000).default(DEFAULT_VERSIONS.maxPerFile),
  VERSIONS_MAX_SHARE: z
    .string()
    .trim()
    .regex(/^\d{1,3}\s*%?$/, 'must be a percentage such as 50 or 50%')
    .transform((v) => Number.parseInt(v, 10))
    .pipe(z.number().max(100, 'must be at most 100%'))
    .default(DEFAULT_VERSIONS.maxShareOfQuota * 100),
  PASSWORD_HASH_COST: integer(10, 20).default(DEFAULT_PASSWORD_HASH_COST),
  VIDEO_TRANSCODE: z.enum(['on', 'off'], 'must be on or off').default('on'),
  VIDEO_TRANSCODE_MAX_HEIGHT: integer(144, 4320).default(DEFAULT_VIDEO.maxHeight),
  VIDEO_TRANSCODE_THREADS: integer(1, 64).default(DEFAULT_VIDEO.threads),
  MAX_UPLOAD_BYTES: integer(1, Number.MAX_SAFE_INTEGER).optional(),
  STORAGE_QUOTA_BYTES: integer(1, Number.MAX_SAFE_INTEGER).optional(),
  RESUMABLE_UPLOAD_EXPIRY_HOURS: integer(1, 24 * 365).default(24),
  WEB_ROOT: text.optional(),
  SEMANTIC_SEARCH: z.enum(['on', 'off'], 'must be on or off').default('on'),
  EMBEDDINGS_URL: url(['http:', 'https:'], 'must be an http(s) URL such as http://localhost:11434/v1').optional(),
  EMBEDDINGS_MODEL: text.optional(),
  EMBEDDINGS_API_KEY: text.optional(),
  CAPTIONS_URL: url(['http:', 'https:'], 'must be an http(s) URL such as http://localhost:11434/v1').optional(),
  CAPTIONS_MODEL: text.optional(),
  CAPTIONS_API_KEY: text.optional(),
  SMART_SEARCH_MODEL: text
    .refine(
      // Each part names a folder under MODELS_DIR or a revision: '.' and '..' would climb out of it.
      (v) => /^(off|[\w.-]+\/[\w.-]+(@[\w./-]+)?)$/.test(v) && !v.split(/[/@]/).some((part) => part === '.' || part === '..'),
      'must be off or a model such as Xenova/clip-vit-base-patch32 (optionally @revision)',
    )
    .default(DEFAULT_SMART_SEARCH_MODEL),
  MODELS_DIR: text.optional(),
  MODELS_URL: url(['http:', 'https:'], 'must be an http(s) URL such as https://huggingface.co').default(DEFAULT_MODELS_URL),
  SCRUB_INTERVAL_MS: integer(0, 7 * 24 * 3_600_000)
    .refine((v) => v === 0 || v >= 1000, 'must be 0 (off) or at least 1000')
    .default(60_000),
  SCRUB_BATCH_SIZE: integer(1, 10_000).default(50),
  HEALTH_TOKEN: text.refine((v) => /^[\x21-\x7e]{16,256}$/.test(v), 'must be 16 to 256 printable characters without spaces').optional(),
  METRICS_TOKEN: text.refine((v) => /^[\x21-\x7e]{16,256}$/.test(v), 'must be 16 to 256 printable characters without spaces').optional(),
  OIDC_ISSUER: text.refine(isSafeIssuer, 'must be an https:// URL (http:// only for a provider on a loopback address)').optional(),
  OIDC_CLIENT_ID: text.optional(),
  OIDC_CLIENT_SECRET: text.optional(),
  OIDC_BUTTON_LABEL: text.refine((v) => v.length <= 60, 'must be at most 60 characters').default('Sign in with SSO'),
});

/** A provider on this machine (tests, a local Keycloak) may speak plain HTTP; anything else must not. */
function isSafeIssuer(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol, hostname } = new URL(value);
  if (protocol === 'https:') return true;
  return protocol === 'http:' && (hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname));
}

type Env = Record<string, string | undefined>;

/** A variable set to nothing (`PORT=` in .env) means unset, so its default applies. */
function withoutBlanks(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
}

/** Rules between variables; checked on the raw values so they are reported alongside any other problem. */
function crossFieldProblems(env: Env): string[] {
  const problems: string[] = [];
  if (env.STORAGE === 's3' && !env.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE=s3');
  if (env.SMTP_URL && !env.MAIL_FROM) problems.push('MAIL_FROM: required when SMTP_URL is set');
  if (env.DATABASE_URL && !env.SECRET_KEY) problems.push('SECRET_KEY: required when DATABASE_URL is set (servers share it)');
  if (env.DATABASE_URL && !env.ENCRYPTION_KEY) problems.push('ENCRYPTION_KEY: required when DATABASE_URL is set (servers share it)');
  if (env.EMBEDDINGS_URL && !env.EMBEDDINGS_MODEL) problems.push('EMBEDDINGS_MODEL: required when EMBEDDINGS_URL is set');
  if (env.CAPTIONS_URL && !env.CAPTIONS_MODEL) problems.push('CAPTIONS_MODEL: required when CAPTIONS_URL is set');
  const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
  if (oidc.some(Boolean) && !oidc.every(Boolean))
    problems.push('OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three for single sign-on, or none');
  return problems;
}

/** Reads and validates the environment once; every invalid variable is reported together. */
export function loadConfig(rawEnv: Env = process.env, cwd = process.cwd()): Config {
  const env = withoutBlanks(rawEnv);
  const parsed = envSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)),
    ...crossFieldProblems(env),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');

  try {
    // The database and the stored files are the owner's alone: a new DATA_DIR is private to this user.
    if (!existsSync(dataDir)) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      chmodSync(dataDir, 0o700);
    }
  } catch (err) {
    throw new ConfigError([`DATA_DIR: cannot create ${dataDir} (${(err as NodeJS.ErrnoException).code ?? String(err)})`]);
  }
  const secrets =
    e.SECRET_KEY && e.ENCRYPTION_KEY
      ? { secretKey: e.SECRET_KEY, encryptionKey: parseKey(e.ENCRYPTION_KEY) as Buffer }
      : generatedSecrets(dataDir, e.SECRET_KEY, e.ENCRYPTION_KEY);

  const webRoot = e.WEB_ROOT ? path.resolve(cwd, e.WEB_ROOT) : defaultWebRoot();

  return Object.freeze({
    http: {
      port: e.PORT,
      host: e.HOST,
      appUrl,
      secureCookies: appUrl.startsWith('https://'),
      trustProxy: parseTrustProxy(e.TRUST_PROXY),
      bodyTimeoutMs: 60_000,
      idleTimeoutMs: 5 * 60_000,
    },
    logLevel: e.LOG_LEVEL,
    dataDir,
    db: e.DATABASE_URL ? { driver: 'postgres', url: e.DATABASE_URL } : { driver: 'sqlite', path: path.join(dataDir, 'nimbus.sqlite') },
    storage:
      e.STORAGE === 's3'
        ? {
            driver: 's3',
            bucket: e.S3_BUCKET as string,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { driver: 'fs', root: path.join(dataDir, 'files') },
    mail: e.SMTP_URL ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM as string } : null,
    secrets,
    signup: e.SIGNUP,
    accountRateLimit: e.ACCOUNT_RATE_LIMIT,
    trashRetentionDays: e.TRASH_RETENTION_DAYS,
    versions: { maxPerFile: e.VERSIONS_MAX, maxShareOfQuota: e.VERSIONS_MAX_SHARE / 100 },
    video: { transcode: e.VIDEO_TRANSCODE === 'on', maxHeight: e.VIDEO_TRANSCODE_MAX_HEIGHT, threads: e.VIDEO_TRANSCODE_THREADS },
    maxUploadBytes: e.MAX_UPLOAD_BYTES ?? null,
    storageQuotaBytes: e.STORAGE_QUOTA_BYTES ?? null,
    resumableUploadExpiryHours: e.RESUMABLE_UPLOAD_EXPIRY_HOURS,
    search: {
      enabled: e.SEMANTIC_SEARCH === 'on',
      embeddings:
        e.EMBEDDINGS_URL && e.EMBEDDINGS_MODEL
          ? { url: e.EMBEDDINGS_URL, model: e.EMBEDDINGS_MODEL, ...(e.EMBEDDINGS_API_KEY ? { apiKey: e.EMBEDDINGS_API_KEY } : {}) }
          : null,
      captions:
        e.CAPTIONS_URL && e.CAPTIONS_MODEL
          ? { url: e.CAPTIONS_URL, model: e.CAPTIONS_MODEL, ...(e.CAPTIONS_API_KEY ? { apiKey: e.CAPTIONS_API_KEY } : {}) }
          : null,
      smartModel: smartModel(
        e.SMART_SEARCH_MODEL,
        e.MODELS_DIR ? path.resolve(cwd, e.MODELS_DIR) : path.join(dataDir, 'models'),
        e.MODELS_URL,
      ),
    },
    webRoot: webRoot && existsSync(path.join(webRoot, 'index.html')) ? webRoot : null,
    integrity: { scrubIntervalMs: e.SCRUB_INTERVAL_MS, scrubBatchSize: e.SCRUB_BATCH_SIZE, healthToken: e.HEALTH_TOKEN ?? null },
    metricsToken: e.METRICS_TOKEN ?? null,
    passwordHashCost: e.PASSWORD_HASH_COST,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, buttonLabel: e.OIDC_BUTTON_LABEL }
        : null,
  } satisfies Config);
}

function smartModel(setting: string, dir: string, hubUrl: string): SmartModelConfig | null {
  if (setting === 'off') return null;
  const [id, revision] = setting.split('@') as [string, string | undefined];
  return { id, revision: revision ?? 'main', dir, hubUrl: hubUrl.replace(/\/+$/, '') };
}

function parseTrustProxy(value: string | undefined): HttpConfig['trustProxy'] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((v) => v.trim());
}

export function parseKey(value: string): Buffer | null {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  return key.length === 32 ? key : null;
}

interface StoredSecrets {
  secretKey: string;
  encryptionKey: string;
}

/**
 * Single-machine installs get their secrets generated once and kept beside the data. The complete
 * file is linked into place, which fails if one exists, so two processes starting together on an
 * empty DATA_DIR agree on one set and neither reads a half-written file.
 */
function generatedSecrets(dataDir: string, secretKey?: string, encryptionKey?: string): Config['secrets'] {
  const file = path.join(dataDir, 'secrets.json');
  if (!existsSync(file)) {
    const fresh: StoredSecrets = { secretKey: randomBytes(48).toString('base64url'), encryptionKey: randomBytes(32).toString('base64') };
    const draft = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(draft, JSON.stringify(fresh, null, 2), { mode: 0o600, flag: 'wx' });
      linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new ConfigError([`DATA_DIR: cannot write ${file} (${String(err)})`]);
    } finally {
      rmSync(draft, { force: true });
    }
  }
  const stored = readStoredSecrets(file);
  return {
    secretKey: secretKey ?? stored.secretKey,
    encryptionKey: parseKey(encryptionKey ?? stored.encryptionKey) as Buffer,
  };
}

function readStoredSecrets(file: string): StoredSecrets {
  let stored: Partial<StoredSecrets> | null = null;
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoredSecrets>;
  } catch {
    // Reported below.
  }
  const valid =
    typeof stored?.secretKey === 'string' &&
    stored.secretKey.length >= 32 &&
    typeof stored.encryptionKey === 'string' &&
    parseKey(stored.encryptionKey) !== null;
  // Never replace a damaged file: its encryption key may be the only way to read stored files.
  if (!valid) throw new ConfigError([`DATA_DIR: ${file} is damaged; restore it from a backup or set SECRET_KEY and ENCRYPTION_KEY`]);
  return stored as StoredSecrets;
}

function defaultWebRoot(): string {
  return path.resolve(import.meta.dirname, '../../web/dist');
}
