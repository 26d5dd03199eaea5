import { sql } from 'kysely';
import type { Db, Dialect } from './database.js';
import { FileVersionRepository } from './repositories/file-version.repository.js';
import { FileRepository } from './repositories/file.repository.js';
import { FolderRepository } from './repositories/folder.repository.js';
import { TrashRepository } from './repositories/trash.repository.js';

export interface DriveRepositories {
  db: Db;
  files: FileRepository;
  versions: FileVersionRepository;
  folders: FolderRepository;
  trash: TrashRepository;
}

export function driveRepositories(db: Db, dialect: Dialect): DriveRepositories {
  return {
    db,
    files: new FileRepository(db, dialect),
    versions: new FileVersionRepository(db),
    folders: new FolderRepository(db, dialect),
    trash: new TrashRepository(db, dialect),
  };
}

interface Unit {
  work: (repos: DriveRepositories) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** A group commit takes in at most this many units, and waits for more only this long. */
const MAX_GROUP = 32;
const MAX_GROUP_MS = 5;

/**
 * Runs `work` in one transaction with repositories bound to it.
 *
 * On SQLite, units that arrive together share one commit (a group commit): each runs in a
 * savepoint of its own, in arrival order, so a unit that fails is rolled back alone; the others
 * settle once the one COMMIT has succeeded, or all fail with it. A commit writes every page the
 * transaction touched (a file row touches a dozen index pages and a name-index segment), and
 * the writes of units that land in the same pages are then written once.
 */
export class UnitOfWork {
  readonly repos: DriveRepositories;
  private readonly waiting: Unit[] = [];
  private grouping = false;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    /** How long a group waits for more units (a test that needs units grouped gives it room). */
    private readonly maxGroupMs = MAX_GROUP_MS,
  ) {
    this.repos = driveRepositories(db, dialect);
  }

  run<T>(work: (repos: DriveRepositories) => Promise<T>): Promise<T> {
    if (this.dialect !== 'sqlite') return this.db.transaction().execute((trx) => work(driveRepositories(trx, this.dialect)));
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.grouping) void this.commitGroup();
    });
  }

  private async commitGroup(): Promise<void> {
    const first = this.waiting.shift();
    if (!first) return;
    this.grouping = true;
    // The first unit is taken before BEGIN, so a failure to begin fails it alone, as it would
    // have failed without grouping; the next unit then tries again.
    const taken: Unit[] = [first];
    const done: { unit: Unit; value: unknown }[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        const repos = driveRepositories(trx, this.dialect);
        const started = performance.now();
        for (let unit: Unit | undefined = first; unit;) {
          await sql`savepoint unit`.execute(trx);
          try {
            done.push({ unit, value: await unit.work(repos) });
          } catch (err) {
            // Undoing the unit fails only when SQLite has ended the whole transaction itself (a
            // full disk, an I/O error): then the group fails, with the unit's own error.
            await sql`rollback to unit`.execute(trx).catch(() => Promise.reject(err));
            unit.reject(err);
          }
          await sql`release unit`.execute(trx);
          if (taken.length >= MAX_GROUP || performance.now() - started >= this.maxGroupMs) break;
          unit = this.waiting.shift();
          if (!unit) {
            // Units whose turn comes in this pass of the event loop join the commit.
            await new Promise((resolve) => setImmediate(resolve));
            unit = this.waiting.shift();
          }
          if (unit) taken.push(unit);
        }
      });
      for (const { unit, value } of done) unit.resolve(value);
    } catch (err) {
      // The transaction rolled back: no unit's work stands, including any whose work had ended.
      for (const unit of taken) unit.reject(err);
    } finally {
      this.grouping = false;
      void this.commitGroup();
    }
  }
}
