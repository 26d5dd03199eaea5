import type { Readable } from 'node:stream';
import { DavError } from '../domain/dav-error.js';
import type { FileService } from '../services/drive/file.service.js';
import type { FolderService } from '../services/drive/folder.service.js';
import type { TrashService } from '../services/drive/trash.service.js';
import type { UploadService } from '../services/uploads/upload.service.js';
import type { DavDriveService, FileCursor, FileRow, FolderRow, StoredAsset } from '../services/webdav/dav-drive.service.js';
import type { DavPropertyService } from '../services/webdav/dav-property.service.js';
import { davName, parseSuffixedName, type DavPath } from './dav-paths.js';

export type DavItem =
  { kind: 'root'; path: DavPath } | { kind: 'folder'; path: DavPath; row: FolderRow } | { kind: 'file'; path: DavPath; row: FileRow };

export type DavCollection = Extract<DavItem, { kind: 'root' | 'folder' }>;

const FILE_PAGE = 500;

export interface DavDriveDeps {
  data: DavDriveService;
  properties: DavPropertyService;
  folders: FolderService;
  files: FileService;
  trash: TrashService;
  uploads: UploadService;
}

export function folderIdOf(item: DavCollection): string | null {
  return item.kind === 'root' ? null : item.row.id;
}

/**
 * Strong for files: half the content hash, 128 bits, short enough for clients that keep If
 * headers in small buffers (two tags and two tokens must fit in 200 bytes for neon's tests).
 */
export function fileEtag(sha256: string): string {
  return `"${sha256.slice(0, 32)}"`;
}

export function etagOf(item: DavItem): string {
  if (item.kind === 'file') return fileEtag(item.row.sha256);
  if (item.kind === 'folder') return `"d-${item.row.id}-${item.row.updatedAt}"`;
  return '"root"';
}

/**
 * The owner's drive as WebDAV sees it: paths of names over the web app's folders and files
 * (active ones only; the trash is invisible), and every change made through the same services the
 * web app uses, so a file put over WebDAV is an ordinary Nimbus file.
 */
export class DavDrive {
  constructor(private readonly deps: DavDriveDeps) {}

  /** The item at `path`, or null when nothing is there (or a file stands where a folder should). */
  async resolve(ownerId: string, path: DavPath): Promise<DavItem | null> {
    let current: DavItem = { kind: 'root', path: [] };
    for (let i = 0; i < path.length; i++) {
      if (current.kind === 'file') return null;
      const next = await this.child(ownerId, current, path[i]!);
      if (!next) return null;
      current = next;
    }
    return current;
  }

  /** The collection that holds `path`: 409 when it is missing or not a collection (RFC 4918 §9.3.1). */
  async parentOf(ownerId: string, path: DavPath): Promise<DavCollection> {
    if (path.length === 0) throw new DavError(403, 'The root has no parent');
    const parent = await this.resolve(ownerId, path.slice(0, -1));
    if (!parent || parent.kind === 'file') throw new DavError(409, 'The parent collection does not exist');
    return parent;
  }

  private async child(ownerId: string, parent: DavCollection, segment: string): Promise<DavItem | null> {
    const folderId = folderIdOf(parent);
    const path = [...parent.path, segment];
    const dav = this.deps.data;
    const folders = await dav.foldersNamed(ownerId, folderId, segment);
    if (folders.length > 0) return { kind: 'folder', path, row: folders[0]! };
    const files = await dav.filesNamed(ownerId, folderId, segment);
    if (files.length > 0) return { kind: 'file', path, row: files[0]! };
    const suffixed = parseSuffixedName(segment);
    if (!suffixed) return null;
    const folder = (await dav.foldersNamed(ownerId, folderId, suffixed.name)).find((f) => f.id.startsWith(suffixed.idPrefix));
    if (folder) return { kind: 'folder', path, row: folder };
    const file = (await dav.filesNamed(ownerId, folderId, suffixed.name)).find((f) => f.id.startsWith(suffixed.idPrefix));
    return file ? { kind: 'file', path, row: file } : null;
  }

  /**
   * The members of a collection with their WebDAV names, folders first, then files in pages by
   * keyset: a folder of any size streams without being loaded at once.
   */
  async *children(ownerId: string, parent: DavCollection): AsyncGenerator<DavItem> {
    const folderId = folderIdOf(parent);
    const folders = await this.deps.data.folders(ownerId, folderId);
    const firstFolder = new Map<string, FolderRow>();
    for (const f of folders) {
      const held = firstFolder.get(f.name);
      if (!held || f.createdAt < held.createdAt || (f.createdAt === held.createdAt && f.id < held.id)) firstFolder.set(f.name, f);
    }
    for (const f of folders) {
      yield { kind: 'folder', path: [...parent.path, davName(f.name, f.id, firstFolder.get(f.name) === f)], row: f };
    }
    // Files come by (name key, upload date, id): within one name key, the first file of each exact
    // name is its oldest, the one that keeps the name (unless a folder holds it).
    let group: string | null = null;
    const seen = new Set<string>();
    let cursor: FileCursor | undefined;
    for (;;) {
      const page = await this.deps.data.filePage(ownerId, folderId, FILE_PAGE, cursor);
      for (const file of page) {
        if (file.nameKey !== group) {
          group = file.nameKey;
          seen.clear();
        }
        const primary = !seen.has(file.filename) && !firstFolder.has(file.filename);
        seen.add(file.filename);
        yield { kind: 'file', path: [...parent.path, davName(file.filename, file.id, primary)], row: file };
      }
      if (page.length < FILE_PAGE) return;
      const last = page[page.length - 1]!;
      cursor = { nameKey: last.nameKey, uploadedAt: last.uploadedAt, id: last.id };
    }
  }

  async createFolder(ownerId: string, parent: DavCollection, name: string): Promise<FolderRow> {
    return this.deps.folders.create(ownerId, name, folderIdOf(parent) ?? '/');
  }

  async createFile(ownerId: string, parent: DavCollection, name: string, body: Readable): Promise<FileRow> {
    return this.deps.uploads.storeFile({ ownerId, filename: name, folderId: folderIdOf(parent), body });
  }

  async replaceFile(ownerId: string, file: FileRow, body: Readable): Promise<FileRow> {
    return this.deps.uploads.replaceContent(ownerId, file.id, body);
  }

  /** To the Nimbus trash, restorable from the web app. */
  async trash(ownerId: string, item: DavItem): Promise<void> {
    if (item.kind === 'root') throw new DavError(403, 'The root cannot be deleted');
    await this.deps.trash.trash(ownerId, [{ type: item.kind, id: item.row.id }]);
  }

  /** Renames and/or moves an item in place: the same id, so its links, properties and index follow. */
  async move(ownerId: string, item: DavItem, parent: DavCollection, name: string): Promise<void> {
    if (item.kind === 'root') throw new DavError(403, 'The root cannot be moved');
    const target = folderIdOf(parent);
    if (item.kind === 'folder') {
      if (target !== item.row.parentId) await this.deps.folders.move(ownerId, item.row.id, target ?? '/');
      if (name !== item.row.name) await this.deps.folders.rename(ownerId, item.row.id, name);
    } else {
      if (target !== item.row.folderId) await this.deps.files.move(ownerId, item.row.id, target ?? '/');
      if (name !== item.row.filename) await this.deps.files.rename(ownerId, item.row.id, name);
    }
  }

  /** Copies a file (its bytes read and stored again under a new key) or a folder, deep or not. */
  async copy(ownerId: string, item: DavItem, parent: DavCollection, name: string, deep: boolean): Promise<void> {
    if (item.kind === 'root') throw new DavError(403, 'The root cannot be copied');
    if (item.kind === 'file') {
      const body = await this.deps.data.read(item.row);
      const copy = await this.createFile(ownerId, parent, name, body);
      await this.deps.properties.copy(item.row.id, copy.id);
      return;
    }
    const folder = await this.createFolder(ownerId, parent, name);
    await this.deps.properties.copy(item.row.id, folder.id);
    if (!deep) return;
    const into: DavCollection = { kind: 'folder', path: [...parent.path, name], row: folder };
    for await (const member of this.children(ownerId, item)) {
      if (member.kind === 'root') continue;
      // The stored name, not the WebDAV one: copied duplicates stay duplicates, each with its own suffix.
      await this.copy(ownerId, member, into, member.kind === 'file' ? member.row.filename : member.row.name, true);
    }
  }

  /** True when `inner` is `outer` or lies below it (both active folders of the owner). */
  async isWithin(ownerId: string, inner: DavCollection, outer: DavItem): Promise<boolean> {
    if (outer.kind === 'root') return true;
    if (outer.kind === 'file' || inner.kind === 'root') return false;
    return this.deps.data.isWithin(ownerId, inner.row.id, outer.row.id);
  }

  /** A file's bytes, to send. */
  asset(file: FileRow): StoredAsset {
    return this.deps.data.asset(file);
  }

  bytesCharged(ownerId: string): Promise<number> {
    return this.deps.data.bytesCharged(ownerId);
  }
}
