import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FileVersionRow } from '../../db/repositories/file-version.repository.js';
import type { DriveRepositories, UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../domain/errors.js';
import type { EncryptedStore } from '../../storage/blob-store.js';
import type { Clock } from '../clock.js';
import type { DriveEvents } from '../drive/drive-events.js';
import type { StoredAsset } from '../downloads/stored-asset.js';
import type { ItemAccess, ItemAccessAnswer } from '../sharing/item-access.js';
import type { Content, FileVersions } from './file-versions.js';

/** Who stored a content, as the versions list shows it: null `email` for an account since deleted. */
export interface AuthorView {
  accountId: string | null;
  email: string | null;
  via: string | null;
}

export interface VersionView {
  row: FileVersionRow;
  author: AuthorView;
}

export interface VersionList {
  file: FileRow;
  currentAuthor: AuthorView;
  /** Newest first. */
  versions: VersionView[];
}

export interface RestoredFile {
  file: FileRow;
  access: ItemAccessAnswer;
}

export interface FileVersionServiceDeps {
  uow: UnitOfWork;
  access: ItemAccess;
  store: EncryptedStore;
  events: DriveEvents;
  versions: FileVersions;
  clock: Clock;
}

function fileNotFound(): NotFoundError {
  return new NotFoundError('FILE_NOT_FOUND', 'File not found');
}

function versionNotFound(): NotFoundError {
  return new NotFoundError('VERSION_NOT_FOUND', 'Version not found');
}

/**
 * A file's earlier contents, for anyone who may read the file: listed and downloaded by readers,
 * restored by writers (the owner or an editor), deleted by the owner alone. A version is reached
 * only through its file, so whoever cannot see the file learns nothing of its versions.
 */
export class FileVersionService {
  constructor(private readonly deps: FileVersionServiceDeps) {}

  async list(callerId: string, fileId: string): Promise<VersionList> {
    const { repos } = this.deps.uow;
    const reach = await this.deps.access.file(callerId, fileId, 'read');
    const file = await repos.files.findOwned(reach.ownerId, fileId);
    if (!file) throw fileNotFound();
    const rows = await repos.versions.listForFile(file.id);
    const ids = [file.contentAuthorId, ...rows.map((v) => v.authorId)].filter((id): id is string => id !== null);
    const emails = await repos.versions.authorEmails(ids);
    const authorOf = (accountId: string | null, via: string | null): AuthorView => ({
      accountId: accountId !== null && emails.has(accountId) ? accountId : null,
      email: accountId === null ? null : (emails.get(accountId) ?? null),
      via,
    });
    return {
      file,
      currentAuthor: authorOf(file.contentAuthorId, file.contentVia),
      versions: rows.map((row) => ({ row, author: authorOf(row.authorId, row.via) })),
    };
  }

  /** A version's bytes under the file's name. */
  async download(callerId: string, fileId: string, versionId: string): Promise<StoredAsset> {
    const { repos } = this.deps.uow;
    const reach = await this.deps.access.file(callerId, fileId, 'read');
    const file = await repos.files.findOwned(reach.ownerId, fileId);
    if (!file) throw fileNotFound();
    const version = await repos.versions.find(file.id, versionId);
    if (!version) throw versionNotFound();
    const { store } = this.deps;
    return {
      filename: file.filename,
      size: version.size,
      contentType: version.contentType,
      sha256: version.sha256,
      modifiedAt: version.uploadedAt,
      open: (range) => store.read(version.storageKey, version.wrappedKey, version.size, range),
    };
  }

  /**
   * Makes a version the file's content again; the content it replaces becomes a version in turn.
   * Restoring content identical to the current one changes nothing. The bytes charged to the
   * owner stay the same (one content leaves the versions as another joins them), so no quota
   * check is needed.
   */
  async restore(callerId: string, fileId: string, versionId: string): Promise<RestoredFile> {
    const { uow, access, events, versions, clock } = this.deps;
    const reach = await access.file(callerId, fileId, 'write');
    const outcome = await uow.run(async (r) => {
      await r.folders.lockTree(reach.ownerId);
      const file = await r.files.findOwned(reach.ownerId, fileId);
      // A trashed file's content stays as it was until it is restored from the trash.
      if (!file || file.trashedAt !== null) throw fileNotFound();
      const version = await r.versions.find(file.id, versionId);
      if (!version) throw versionNotFound();
      if (version.sha256 === file.sha256 && version.size === file.size) return { file, changed: false };
      const swapped = await versions.swapContent(r, file, contentOf(version), { accountId: callerId, via: null }, clock.now());
      await events.blobsReleased(r.db, reach.ownerId, swapped.released);
      await events.fileStored(r.db, swapped.file);
      return { file: swapped.file, changed: true };
    });
    if (outcome.changed) events.committed();
    return { file: outcome.file, access: reach };
  }

  /** Deletes a version and its bytes: the owner's decision alone (anyone else is answered as for an unknown file). */
  async delete(callerId: string, fileId: string, versionId: string): Promise<void> {
    const { uow, access, events } = this.deps;
    const reach = await access.file(callerId, fileId, 'read');
    if (reach.role !== 'owner') throw fileNotFound();
    await uow.run(async (r) => {
      // Under the lock a restore takes, so a version is never restored while its bytes are released.
      await r.folders.lockTree(reach.ownerId);
      const released = await this.deleteLocked(r, reach.ownerId, fileId, versionId);
      await events.blobsReleased(r.db, reach.ownerId, released);
    });
    events.committed();
  }

  private async deleteLocked(r: DriveRepositories, ownerId: string, fileId: string, versionId: string): Promise<string[]> {
    const file = await r.files.findOwned(ownerId, fileId);
    if (!file) throw fileNotFound();
    const version = await r.versions.find(file.id, versionId);
    if (!version) throw versionNotFound();
    return r.versions.delete([version.id]);
  }
}

function contentOf(version: FileVersionRow): Content {
  return {
    size: version.size,
    contentType: version.contentType,
    sha256: version.sha256,
    crc32: version.crc32,
    storageKey: version.storageKey,
    wrappedKey: version.wrappedKey,
  };
}
