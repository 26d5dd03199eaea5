import { existsSync, readFileSync } from 'node:fs';
import { writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { parseKey, type Config } from '../config.js';
import { BackupError, keyFingerprint, SECRETS_FILE, type Manifest } from './manifest.js';

export interface Secrets {
  secretKey: string | null;
  encryptionKey: Buffer;
}

/** A Nimbus secrets.json (or any JSON with `encryptionKey`, and optionally `secretKey`). */
export function readKeyFile(file: string): Secrets {
  let json: { secretKey?: unknown; encryptionKey?: unknown };
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as typeof json;
  } catch (err) {
    throw new BackupError(`Cannot read the key file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'not JSON'}`);
  }
  const encryptionKey = typeof json.encryptionKey === 'string' ? parseKey(json.encryptionKey) : null;
  if (!encryptionKey) throw new BackupError(`${file} has no valid encryptionKey (32 bytes, hex or base64)`);
  return { encryptionKey, secretKey: typeof json.secretKey === 'string' && json.secretKey.length >= 32 ? json.secretKey : null };
}

/** Whether this server takes its keys from DATA_DIR/secrets.json (rather than the environment). */
function usesSecretsFile(config: Config): boolean {
  const file = path.join(config.dataDir, 'secrets.json');
  if (!existsSync(file)) return false;
  try {
    return readKeyFile(file).encryptionKey.equals(config.secrets.encryptionKey);
  } catch {
    return false;
  }
}

export interface KeyPlan {
  secrets: Secrets;
  /** Write these into DATA_DIR/secrets.json for the restored server to use. */
  writeSecretsFile: boolean;
  /** The restored server signs tokens with another key: everyone signs in again. */
  sessionsEnd: boolean;
}

/**
 * The master key the backed-up files need, from the backup itself, a kept key file, or the
 * server's own configuration, checked against the manifest's fingerprint before anything is written.
 */
export function planKeys(config: Config, dir: string, manifest: Manifest, keyFile: string | null): KeyPlan {
  const own: Secrets = { secretKey: config.secrets.secretKey, encryptionKey: config.secrets.encryptionKey };
  const given = manifest.encryption.masterKey ? readKeyFile(path.join(dir, SECRETS_FILE)) : keyFile ? readKeyFile(keyFile) : own;
  if (keyFingerprint(given.encryptionKey) !== manifest.encryption.keyFingerprint) {
    throw new BackupError(
      given === own
        ? "This server's encryption key is not the one the backup's files were encrypted with. Give the key kept from the backed-up server: --key-file path/to/secrets.json, or ENCRYPTION_KEY (and SECRET_KEY)."
        : `The key in ${manifest.encryption.masterKey ? 'the backup' : keyFile} is not the one the backup's files were encrypted with.`,
    );
  }
  if (given === own) return { secrets: own, writeSecretsFile: false, sessionsEnd: false };
  if (!usesSecretsFile(config) && !given.encryptionKey.equals(config.secrets.encryptionKey)) {
    throw new BackupError(
      "ENCRYPTION_KEY is set to another key than the backup's: set it to the backup's key (or, with SQLite, unset ENCRYPTION_KEY and SECRET_KEY so DATA_DIR/secrets.json is used).",
    );
  }
  const fileBased = usesSecretsFile(config);
  const secretKey = fileBased ? (given.secretKey ?? config.secrets.secretKey) : config.secrets.secretKey;
  return {
    secrets: { secretKey, encryptionKey: given.encryptionKey },
    writeSecretsFile: fileBased,
    sessionsEnd: secretKey !== given.secretKey,
  };
}

export async function writeSecretsFile(dataDir: string, secrets: Secrets): Promise<void> {
  const file = path.join(dataDir, 'secrets.json');
  const draft = `${file}.restore.tmp`;
  const body = { secretKey: secrets.secretKey, encryptionKey: secrets.encryptionKey.toString('base64') };
  await writeFile(draft, JSON.stringify(body, null, 2), { mode: 0o600 });
  await rename(draft, file);
}
