import { LIMITS } from '@nimbus/common';
import type { Readable } from 'node:stream';
import type { DavRepository } from '../../db/repositories/dav.repository.js';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { EncryptedStore } from '../../storage/blob-store.js';
import { fileAsset, type StoredAsset } from '../downloads/stored-asset.js';

export type { FileRow } from '../../db/repositories/file.repository.js';
export type { FolderRow } from '../../db/repositories/folder.repository.js';
export type { StoredAsset } from '../downloads/stored-asset.js';

/** Where the next page of a folder's files starts, in name order. */
export interface FileCursor {
  nameKey: string;
  uploadedAt: number;
  id: string;
}

export interface DavDriveServiceDeps {
  uow: UnitOfWork;
  dav: DavRepository;
  store: EncryptedStore;
}

/**
 * The reads WebDAV makes of an owner's active folders and files: by exact name, as a listing in
 * name order, and their bytes. Changes go through the drive's and uploads' own services.
 */
export class DavDriveService {
  constructor(private readonly deps: DavDriveServiceDeps) {}

  /** Active folders in `parentId` named exactly `name`, oldest first. */
  foldersNamed(ownerId: string, parentId: string | null, name: string): Promise<FolderRow[]> {
    return this.deps.dav.foldersNamed(ownerId, parentId, name);
  }

  /** Active files in `folderId` named exactly `name`, oldest first. */
  filesNamed(ownerId: string, folderId: string | null, name: string): Promise<FileRow[]> {
    return this.deps.dav.filesNamed(ownerId, folderId, name);
  }

  /** The active folders in `parentId`, in name order. */
  folders(ownerId: string, parentId: string | null): Promise<FolderRow[]> {
    return this.deps.uow.repos.folders.list({ ownerId, parentId, trashMode: false, sort: 'alp_asc', limit: LIMITS.folderListMax });
  }

  /** One page of the active files in `folderId`, by (name key, upload date, id). */
  filePage(ownerId: string, folderId: string | null, limit: number, cursor: FileCursor | undefined): Promise<FileRow[]> {
    return this.deps.uow.repos.files.list({ ownerId, folderId, trashMode: false, sort: 'alp_asc', limit, cursor });
  }

  /** True when folder `innerId` is `outerId` or lies below it. */
  isWithin(ownerId: string, innerId: string, outerId: string): Promise<boolean> {
    return this.deps.uow.repos.folders.isWithin(ownerId, innerId, outerId);
  }

  /** What the quota sees as used: files, trash, kept versions, and the bytes unfinished resumable uploads reserved. */
  bytesCharged(ownerId: string): Promise<number> {
    return this.deps.uow.repos.files.bytesCharged(ownerId);
  }

  /** Bytes of the owner's kept versions, which give way to new content when the quota needs room. */
  versionBytes(ownerId: string): Promise<number> {
    return this.deps.uow.repos.versions.bytesOf(ownerId);
  }

  /** The whole decrypted content of a file, to store again as a copy. */
  read(file: FileRow): Promise<Readable> {
    return this.deps.store.read(file.storageKey, file.wrappedKey, file.size);
  }

  /** A file's bytes, to send (ranges included). */
  asset(file: FileRow): StoredAsset {
    return fileAsset(file, this.deps.store);
  }
}
