import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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

export interface Config {
  http: { port: number; host: string; appUrl: string; secureCookies: boolean };
  logLevel: string;
  dataDir: string;
  db: DatabaseConfig;
  storage: StorageConfig;
  mail: MailConfig | null;
  secrets: { secretKey: string; encryptionKey: Buffer };
  signupOpen: boolean;
  trashRetentionDays: number;
  maxUploadBytes: number | null;
  /** Built web app to serve, or null when there is none (API only). */
  webRoot: string | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const boolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalText.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'must start with postgres://'),
  STORAGE: z.enum(['fs', 's3']).default('fs'),
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalText.refine((v) => v === undefined || URL.canParse(v), 'must be a URL'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: boolean.default(false),
  APP_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/[^/]+/.test(v), 'must be an http(s) origin'),
  SMTP_URL: optionalText.refine((v) => v === undefined || /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://'),
  MAIL_FROM: optionalText,
  SECRET_KEY: optionalText.refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
  ENCRYPTION_KEY: optionalText.refine((v) => v === undefined || parseKey(v) !== null, 'must be 32 bytes as 64 hex digits or base64'),
  SIGNUP: z.enum(['open', 'closed']).default('open'),
  TRASH_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(30),
  MAX_UPLOAD_BYTES: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().optional()),
  WEB_ROOT: optionalText,
});

type Env = Record<string, string | undefined>;

/** Reads and validates the environment once; every invalid variable is reported together. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');

  if (e.STORAGE === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE=s3');
  if (e.SMTP_URL && !e.MAIL_FROM) problems.push('MAIL_FROM: required when SMTP_URL is set');
  if (e.DATABASE_URL && !e.SECRET_KEY) problems.push('SECRET_KEY: required when DATABASE_URL is set (servers share it)');
  if (e.DATABASE_URL && !e.ENCRYPTION_KEY) problems.push('ENCRYPTION_KEY: required when DATABASE_URL is set (servers share it)');
  if (problems.length > 0) throw new ConfigError(problems);

  mkdirSync(dataDir, { recursive: true });
  const secrets =
    e.SECRET_KEY && e.ENCRYPTION_KEY
      ? { secretKey: e.SECRET_KEY, encryptionKey: parseKey(e.ENCRYPTION_KEY) as Buffer }
      : generatedSecrets(dataDir, e.SECRET_KEY, e.ENCRYPTION_KEY);

  const webRoot = e.WEB_ROOT ? path.resolve(cwd, e.WEB_ROOT) : defaultWebRoot();

  return Object.freeze({
    http: { port: e.PORT, host: e.HOST, appUrl, secureCookies: appUrl.startsWith('https://') },
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
    signupOpen: e.SIGNUP === 'open',
    trashRetentionDays: e.TRASH_RETENTION_DAYS,
    maxUploadBytes: e.MAX_UPLOAD_BYTES ?? null,
    webRoot: webRoot && existsSync(path.join(webRoot, 'index.html')) ? webRoot : null,
  } satisfies Config);
}

export function parseKey(value: string): Buffer | null {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  return key.length === 32 ? key : null;
}

/** Single-machine installs get their secrets generated once and kept beside the data. */
function generatedSecrets(dataDir: string, secretKey?: string, encryptionKey?: string): Config['secrets'] {
  const file = path.join(dataDir, 'secrets.json');
  let stored: { secretKey?: string; encryptionKey?: string } = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
  const next = {
    secretKey: stored.secretKey ?? randomBytes(48).toString('base64url'),
    encryptionKey: stored.encryptionKey ?? randomBytes(32).toString('base64'),
  };
  if (next.secretKey !== stored.secretKey || next.encryptionKey !== stored.encryptionKey) {
    writeFileSync(file, JSON.stringify(next, null, 2), { mode: 0o600 });
  }
  return {
    secretKey: secretKey ?? next.secretKey,
    encryptionKey: parseKey(encryptionKey ?? next.encryptionKey) as Buffer,
  };
}

function defaultWebRoot(): string {
  return path.resolve(import.meta.dirname, '../../web/dist');
}
