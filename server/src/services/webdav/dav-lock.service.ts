import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { DavRepository, type DavLockRow } from '../../db/repositories/dav.repository.js';
import type { DavLockScope } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { DavError } from '../../domain/dav-error.js';
import type { Clock } from '../clock.js';

export type { DavLockRow } from '../../db/repositories/dav.repository.js';
export type { DavLockScope } from '../../db/schema.js';

/** Far more than any client holds; a client that takes more is misbehaving. */
const MAX_LOCKS_PER_OWNER = 1000;

export interface LockRequest {
  path: string;
  depth: '0' | 'infinity';
  scope: DavLockScope;
  ownerXml: string;
  timeoutSeconds: number;
}

/** Whether a lock on `lock` covers the path `key` (the path itself, or below a deep lock). */
export function covers(lock: DavLockRow, key: string): boolean {
  if (lock.path === key) return true;
  return lock.depth === 'infinity' && (lock.path === '' || key.startsWith(`${lock.path}/`));
}

/** Whether the lock sits on `key` or anywhere below it. */
function isWithin(lock: DavLockRow, key: string): boolean {
  return lock.path === key || key === '' || lock.path.startsWith(`${key}/`);
}

/**
 * WebDAV write locks, kept in the database so every server process sees the same ones. Taking a
 * lock checks for conflicts under the owner's tree lock, so two processes never both grant an
 * exclusive lock on one path.
 */
export class DavLockService {
  constructor(
    private readonly db: Db,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  active(ownerId: string): Promise<DavLockRow[]> {
    return new DavRepository(this.db).activeLocks(ownerId, this.clock.now());
  }

  /**
   * Locks a request must hold tokens for: those covering each written path and, for `deep` paths
   * (a collection deleted or moved away), those anywhere below it too.
   */
  required(locks: DavLockRow[], writes: { key: string; deep: boolean }[]): DavLockRow[] {
    const needed = new Map<string, DavLockRow>();
    for (const { key, deep } of writes) {
      for (const lock of locks) if (covers(lock, key) || (deep && isWithin(lock, key))) needed.set(lock.token, lock);
    }
    return [...needed.values()];
  }

  async lock(ownerId: string, request: LockRequest): Promise<DavLockRow> {
    return this.uow.run(async (r) => {
      await r.folders.lockTree(ownerId);
      const repo = new DavRepository(r.db);
      const now = this.clock.now();
      const locks = await repo.activeLocks(ownerId, now);
      if (locks.length >= MAX_LOCKS_PER_OWNER) throw new DavError(503, 'Too many locks held; unlock some first');
      const conflicting = locks.filter(
        (l) =>
          (covers(l, request.path) || (request.depth === 'infinity' && isWithin(l, request.path))) &&
          (l.scope === 'exclusive' || request.scope === 'exclusive'),
      );
      if (conflicting.length > 0) throw new DavError(423, 'The resource is locked', 'no-conflicting-lock');
      const row: DavLockRow = {
        token: `opaquelocktoken:${randomUUID()}`,
        ownerId,
        path: request.path,
        depth: request.depth,
        scope: request.scope,
        ownerXml: request.ownerXml,
        timeoutSeconds: request.timeoutSeconds,
        expiresAt: now + request.timeoutSeconds * 1000,
        createdAt: now,
      };
      await repo.insertLock(row);
      return row;
    });
  }

  /** Refreshes a lock that covers `key`; 412 when the token names none (RFC 4918 §9.10.2). */
  async refresh(ownerId: string, key: string, tokens: Set<string>, timeoutSeconds: number): Promise<DavLockRow> {
    const lock = (await this.active(ownerId)).find((l) => tokens.has(l.token) && covers(l, key));
    if (!lock) throw new DavError(412, 'No lock of the submitted tokens covers this resource', 'lock-token-matches-request-uri');
    const expiresAt = this.clock.now() + timeoutSeconds * 1000;
    await new DavRepository(this.db).refreshLock(lock.token, timeoutSeconds, expiresAt);
    return { ...lock, timeoutSeconds, expiresAt };
  }

  async unlock(ownerId: string, key: string, token: string): Promise<void> {
    const lock = (await this.active(ownerId)).find((l) => l.token === token);
    if (!lock || !covers(lock, key))
      throw new DavError(409, 'The lock token does not match this resource', 'lock-token-matches-request-uri');
    await new DavRepository(this.db).deleteLock(ownerId, token);
  }

  /** A resource moved or deleted leaves its locks (and those below it) behind. */
  async releaseUnder(ownerId: string, key: string): Promise<void> {
    const gone = (await this.active(ownerId)).filter((l) => isWithin(l, key)).map((l) => l.path);
    await new DavRepository(this.db).deleteLocksAt(ownerId, gone);
  }
}
