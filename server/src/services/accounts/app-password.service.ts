import { randomBytes } from 'node:crypto';
import type { AppPasswordRepository, AppPasswordRow } from '../../db/repositories/app-password.repository.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { hashToken, newId } from '../../security/ids.js';
import type { Clock } from '../clock.js';
import type { SecurityRecorder } from './security-log.service.js';

export type { AppPasswordRow } from '../../db/repositories/app-password.repository.js';

/** Enough for every device of one person, few enough to list on one screen. */
export const MAX_APP_PASSWORDS = 50;

/**
 * A new app password: 24 URL-safe characters, never starting with "-", which a
 * command-line client (litmus, rclone, curl) would read as an option rather than a password.
 */
export function newAppPassword(): string {
  for (;;) {
    const password = randomBytes(18).toString('base64url');
    if (!password.startsWith('-')) return password;
  }
}

/**
 * Passwords for one device or app each (WebDAV clients, sync tools), apart from the account
 * password: changing that password or signing out everywhere leaves them working, and each can be
 * revoked alone. The secret is 144 random bits, shown once; only its SHA-256 is kept (a secret of
 * that strength needs no slow hash).
 */
export class AppPasswordService {
  constructor(
    private readonly passwords: AppPasswordRepository,
    private readonly clock: Clock,
    private readonly security: SecurityRecorder | null = null,
  ) {}

  async create(accountId: string, name: string): Promise<{ row: AppPasswordRow; password: string }> {
    if ((await this.passwords.countOwned(accountId)) >= MAX_APP_PASSWORDS) {
      throw new ConflictError('CONFLICT', `An account can have at most ${MAX_APP_PASSWORDS} app passwords`);
    }
    const password = newAppPassword();
    const row: AppPasswordRow = {
      id: newId(),
      accountId,
      name,
      secretHash: hashToken(password),
      createdAt: this.clock.now(),
      lastUsedAt: null,
    };
    await this.passwords.insert(row);
    await this.security?.record(accountId, { type: 'app-password-created', details: { name } });
    return { row, password };
  }

  list(accountId: string): Promise<AppPasswordRow[]> {
    return this.passwords.listOwned(accountId);
  }

  async revoke(accountId: string, id: string): Promise<void> {
    // At most 50 rows: the name for the security log costs no query of its own.
    const name = (await this.passwords.listOwned(accountId)).find((p) => p.id === id)?.name;
    if (!(await this.passwords.deleteOwned(accountId, id))) throw new NotFoundError('NOT_FOUND', 'App password not found');
    await this.security?.record(accountId, { type: 'app-password-revoked', ...(name ? { details: { name } } : {}) });
  }

  /** Whether `password` is one of the account's app passwords; a match records its use. */
  verify(accountId: string, password: string): Promise<boolean> {
    return this.passwords.touch(accountId, hashToken(password), this.clock.now());
  }
}
