import type { Db, Dialect } from './database.js';
import { FileRepository } from './repositories/file.repository.js';
import { FolderRepository } from './repositories/folder.repository.js';
import { TrashRepository } from './repositories/trash.repository.js';

export interface DriveRepositories {
  db: Db;
  files: FileRepository;
  folders: FolderRepository;
  trash: TrashRepository;
}

export function driveRepositories(db: Db, dialect: Dialect): DriveRepositories {
  return {
    db,
    files: new FileRepository(db, dialect),
    folders: new FolderRepository(db, dialect),
    trash: new TrashRepository(db, dialect),
  };
}

/** Runs `work` in one transaction with repositories bound to it. */
export class UnitOfWork {
  readonly repos: DriveRepositories;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {
    this.repos = driveRepositories(db, dialect);
  }

  run<T>(work: (repos: DriveRepositories) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(driveRepositories(trx, this.dialect)));
  }
}
