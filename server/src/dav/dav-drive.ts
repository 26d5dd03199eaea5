import type { ItemRef } from '@nimbus/common';
import type { Readable } from 'node:stream';
import { DavError } from '../domain/dav-error.js';
import type { FileService } from '../services/drive/file.service.js';
import type { FolderService } from '../services/drive/folder.service.js';
import type { TrashService } from '../services/drive/trash.service.js';
import type { UploadService } from '../services/uploads/upload.service.js';
import type { ContentAuthor } from '../services/versions/file-versions.js';
import type { DavDriveService, FileCursor, FileRow, FolderRow, StoredAsset } from '../services/webdav/dav-drive.service.js';
import type { DavPropertyService } from '../services/webdav/dav-property.service.js';
import { assertNotShareRoot, assertSameSpace, type AccessNeed, type ItemAccessAnswer } from '../services/sharing/item-access.js';
import { SHARED_WITH_ME, type SharedDavService } from '../services/webdav/shared-dav.service.js';
import { davName, parseSuffixedName, type DavPath } from './dav-paths.js';

/**
 * An item as WebDAV sees it. `via` names the share an item was reached through, under
 * `/Shared with me/`: its row then belongs to the owner's drive, not the caller's.
 */
export type DavItem =
  | { kind: 'root'; path: DavPath }
  | { kind: 'shared'; path: DavPath }
  | { kind: 'folder'; path: DavPath; row: FolderRow; via?: string }
  | { kind: 'file'; path: DavPath; row: FileRow; via?: string };

export type DavCollection = Extract<DavItem, { kind: 'root' | 'shared' | 'folder' }>;
type DriveItem = Extract<DavItem, { kind: 'file' | 'folder' }>;
type DriveFolder = Extract<DavItem, { kind: 'root' | 'folder' }>;

/** What a checked MOVE or COPY acts on: the item, where it goes, and whose drive receives it. */
export interface DavTransfer {
  item: DriveItem;
  parent: DriveFolder;
  targetOwnerId: string;
}

const FILE_PAGE = 500;

export interface DavDriveDeps {
  data: DavDriveService;
  properties: DavPropertyService;
  folders: FolderService;
  files: FileService;
  trash: TrashService;
  uploads: UploadService;
  shared: SharedDavService;
}

const OWN: Omit<ItemAccessAnswer, 'ownerId'> = { role: 'owner' };

function folderIdOf(item: DriveFolder): string | null {
  return item.kind === 'root' ? null : item.row.id;
}

/** The item a share itself names (`/Shared with me/Photos`): its recipient never deletes or moves it. */
function isEntry(item: DavItem): boolean {
  return item.kind !== 'root' && item.kind !== 'shared' && item.via !== undefined && item.path.length === 2;
}

function refOf(item: DriveItem): ItemRef {
  return { type: item.kind, id: item.row.id };
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
  return item.kind === 'shared' ? '"shared"' : '"root"';
}

/**
 * The caller's drive as WebDAV sees it: paths of names over the web app's folders and files
 * (active ones only; the trash is invisible), with what others shared with the caller under the
 * virtual `/Shared with me/`. Every change goes through the services the web app uses, so a file
 * put over WebDAV is an ordinary Nimbus file; inside a share, ItemAccess decides and the change
 * lands in the owner's drive.
 */
export class DavDrive {
  constructor(private readonly deps: DavDriveDeps) {}

  /** The item at `path`, or null when nothing is there (or a file stands where a folder should). */
  async resolve(callerId: string, path: DavPath): Promise<DavItem | null> {
    const root: DavItem = { kind: 'root', path: [] };
    if (path.length === 0) return root;
    if (path[0] === SHARED_WITH_ME && !(await this.child(callerId, root, SHARED_WITH_ME))) return this.resolveShared(callerId, path);
    return this.walk(callerId, root, path, 0);
  }

  /** The collection that holds `path`: 409 when it is missing or not a collection (RFC 4918 §9.3.1). */
  async parentOf(callerId: string, path: DavPath): Promise<DavCollection> {
    if (path.length === 0) throw new DavError(403, 'The root has no parent');
    const parent = await this.resolve(callerId, path.slice(0, -1));
    if (!parent || parent.kind === 'file') throw new DavError(409, 'The parent collection does not exist');
    return parent;
  }

  /**
   * `/Shared with me/<entry>/…`: the entry from the caller's shares as they stand now, then names in
   * the owner's drive below it; ItemAccess has the last word on the item found.
   */
  private async resolveShared(callerId: string, path: DavPath): Promise<DavItem | null> {
    if (path.length === 1) return { kind: 'shared', path: [SHARED_WITH_ME] };
    const entry = (await this.deps.shared.entries(callerId)).find((e) => e.name === path[1]);
    if (!entry) return null;
    const entryPath = path.slice(0, 2);
    const start: DriveItem =
      entry.type === 'file'
        ? { kind: 'file', path: entryPath, row: entry.row, via: entry.shareId }
        : { kind: 'folder', path: entryPath, row: entry.row, via: entry.shareId };
    const item = await this.walk(entry.row.ownerId, start, path, 2);
    if (!item || item.kind === 'root' || item.kind === 'shared') return null;
    return (await this.deps.shared.reach(callerId, refOf(item), 'read')) ? item : null;
  }

  private async walk(ownerId: string, from: DavItem, path: DavPath, index: number): Promise<DavItem | null> {
    let current = from;
    for (let i = index; i < path.length; i++) {
      if (current.kind !== 'root' && current.kind !== 'folder') return null;
      const next = await this.child(ownerId, current, path[i]!);
      if (!next) return null;
      current = next;
    }
    return current;
  }

  private async child(ownerId: string, parent: DriveFolder, segment: string): Promise<DriveItem | null> {
    const folderId = folderIdOf(parent);
    const path = [...parent.path, segment];
    const via = parent.kind === 'folder' && parent.via !== undefined ? { via: parent.via } : {};
    const dav = this.deps.data;
    const folders = await dav.foldersNamed(ownerId, folderId, segment);
    if (folders.length > 0) return { kind: 'folder', path, row: folders[0]!, ...via };
    const files = await dav.filesNamed(ownerId, folderId, segment);
    if (files.length > 0) return { kind: 'file', path, row: files[0]!, ...via };
    const suffixed = parseSuffixedName(segment);
    if (!suffixed) return null;
    const folder = (await dav.foldersNamed(ownerId, folderId, suffixed.name)).find((f) => f.id.startsWith(suffixed.idPrefix));
    if (folder) return { kind: 'folder', path, row: folder, ...via };
    const file = (await dav.filesNamed(ownerId, folderId, suffixed.name)).find((f) => f.id.startsWith(suffixed.idPrefix));
    return file ? { kind: 'file', path, row: file, ...via } : null;
  }

  /**
   * The members of a collection with their WebDAV names. The root shows `Shared with me` first
   * when something is shared with the caller and no item of the caller's own takes the name.
   */
  async *children(callerId: string, parent: DavCollection): AsyncGenerator<DavItem> {
    if (parent.kind === 'shared') {
      for (const e of await this.deps.shared.entries(callerId)) {
        const path = [SHARED_WITH_ME, e.name];
        yield e.type === 'file' ? { kind: 'file', path, row: e.row, via: e.shareId } : { kind: 'folder', path, row: e.row, via: e.shareId };
      }
      return;
    }
    if (parent.kind === 'root') {
      const shadowed = await this.child(callerId, parent, SHARED_WITH_ME);
      if (!shadowed && (await this.deps.shared.entries(callerId)).length > 0) yield { kind: 'shared', path: [SHARED_WITH_ME] };
    }
    yield* this.members(parent.kind === 'root' ? callerId : parent.row.ownerId, parent);
  }

  /**
   * A folder's members in `ownerId`'s drive, folders first, then files in pages by keyset: a
   * folder of any size streams without being loaded at once.
   */
  private async *members(ownerId: string, parent: DriveFolder): AsyncGenerator<DriveItem> {
    const folderId = folderIdOf(parent);
    const via = parent.kind === 'folder' && parent.via !== undefined ? { via: parent.via } : {};
    const folders = await this.deps.data.folders(ownerId, folderId);
    const firstFolder = new Map<string, FolderRow>();
    for (const f of folders) {
      const held = firstFolder.get(f.name);
      if (!held || f.createdAt < held.createdAt || (f.createdAt === held.createdAt && f.id < held.id)) firstFolder.set(f.name, f);
    }
    for (const f of folders) {
      yield { kind: 'folder', path: [...parent.path, davName(f.name, f.id, firstFolder.get(f.name) === f)], row: f, ...via };
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
        yield { kind: 'file', path: [...parent.path, davName(file.filename, file.id, primary)], row: file, ...via };
      }
      if (page.length < FILE_PAGE) return;
      const last = page[page.length - 1]!;
      cursor = { nameKey: last.nameKey, uploadedAt: last.uploadedAt, id: last.id };
    }
  }

  /** Whose drive a change of `item` acts on: the caller's own, or (as ItemAccess allows) a sharer's. */
  private async reachOf(callerId: string, item: DriveItem, need: AccessNeed): Promise<ItemAccessAnswer> {
    if (item.via === undefined) return { ...OWN, ownerId: callerId };
    const reach = await this.deps.shared.reach(callerId, refOf(item), need);
    if (!reach) throw new DavError(404, 'Not found');
    return reach;
  }

  /** Whose drive a new item in `parent` goes into; `Shared with me` itself takes nothing. */
  private async writerOf(callerId: string, parent: DavCollection): Promise<ItemAccessAnswer> {
    if (parent.kind === 'shared') throw new DavError(403, `${SHARED_WITH_ME} is read-only: write inside the shared folders`);
    if (parent.kind === 'root') return { ...OWN, ownerId: callerId };
    return this.reachOf(callerId, parent, 'write');
  }

  /** 403 unless the caller may change `item` (lock it, set its properties). */
  async assertWritable(callerId: string, item: DavItem): Promise<void> {
    if (item.kind === 'shared') throw new DavError(403, `${SHARED_WITH_ME} is read-only`);
    if (item.kind !== 'root') await this.reachOf(callerId, item, 'write');
  }

  async createFolder(callerId: string, parent: DavCollection, name: string): Promise<FolderRow> {
    const writer = await this.writerOf(callerId, parent);
    return this.deps.folders.create(writer.ownerId, name, parent.kind === 'folder' ? parent.row.id : '/');
  }

  /**
   * A new file; inside a share its bytes are the owner's and count against the owner's quota.
   * `via` is the app password the caller signed in with: the content is recorded as theirs, through it.
   */
  async createFile(callerId: string, parent: DavCollection, name: string, body: Readable, via: string | null = null): Promise<FileRow> {
    const writer = await this.writerOf(callerId, parent);
    return this.deps.uploads.storeFile({
      ownerId: writer.ownerId,
      filename: name,
      folderId: parent.kind === 'folder' ? parent.row.id : null,
      body,
      author: { accountId: callerId, via },
    });
  }

  /** New content for a file; the old one is kept as a version of it. */
  async replaceFile(
    callerId: string,
    file: Extract<DavItem, { kind: 'file' }>,
    body: Readable,
    via: string | null = null,
  ): Promise<FileRow> {
    const writer = await this.reachOf(callerId, file, 'write');
    return this.deps.uploads.replaceContent(writer.ownerId, file.row.id, body, { accountId: callerId, via });
  }

  /** To the Nimbus trash (the owner's, inside a share), restorable from the web app. */
  async trash(callerId: string, item: DavItem): Promise<void> {
    if (item.kind === 'root') throw new DavError(403, 'The root cannot be deleted');
    if (item.kind === 'shared') throw new DavError(403, `${SHARED_WITH_ME} cannot be deleted`);
    if (isEntry(item)) throw new DavError(403, 'A shared item can only be deleted by its owner');
    const reach = await this.reachOf(callerId, item, 'write');
    assertNotShareRoot(reach, item.row.id);
    await this.deps.trash.trash(reach.ownerId, [{ type: item.kind, id: item.row.id }]);
  }

  /**
   * Checks a MOVE or COPY before anything changes. Moves stay in one drive (the caller's own, or one
   * share); a copy may also take a shared item into the caller's own drive, charged to the caller,
   * since reading it is allowed anyway. Anything else would hand bytes from one account to another.
   */
  async planTransfer(callerId: string, item: DavItem, parent: DavCollection, isMove: boolean): Promise<DavTransfer> {
    if (item.kind === 'root' || item.kind === 'shared') throw new DavError(403, 'This collection cannot be copied or moved');
    if (isMove && isEntry(item)) throw new DavError(403, 'A shared item can only be moved or renamed by its owner');
    const source = await this.reachOf(callerId, item, isMove ? 'write' : 'read');
    if (isMove) assertNotShareRoot(source, item.row.id);
    const target = await this.writerOf(callerId, parent);
    if (parent.kind === 'shared') throw new DavError(403, `${SHARED_WITH_ME} is read-only`);
    const intoOwn = target.share === undefined && target.ownerId === callerId;
    if (!(!isMove && intoOwn)) assertSameSpace(source, target);
    return { item, parent, targetOwnerId: target.ownerId };
  }

  /** Renames and/or moves an item in place: the same id, so its links, properties and index follow. */
  async move(transfer: DavTransfer, name: string): Promise<void> {
    const { item, parent, targetOwnerId: ownerId } = transfer;
    const target = folderIdOf(parent);
    if (item.kind === 'folder') {
      if (target !== item.row.parentId) await this.deps.folders.move(ownerId, item.row.id, target ?? '/');
      if (name !== item.row.name) await this.deps.folders.rename(ownerId, item.row.id, name);
    } else {
      if (target !== item.row.folderId) await this.deps.files.move(ownerId, item.row.id, target ?? '/');
      if (name !== item.row.filename) await this.deps.files.rename(ownerId, item.row.id, name);
    }
  }

  /**
   * Copies a file (its bytes read and stored again under a new key) or a folder, deep or not. The
   * copies' contents are recorded as stored by `author`, who made them.
   */
  copy(transfer: DavTransfer, name: string, deep: boolean, author?: ContentAuthor): Promise<void> {
    return this.copyInto(transfer.targetOwnerId, transfer.item, transfer.parent, name, deep, author);
  }

  private async copyInto(
    ownerId: string,
    item: DriveItem,
    parent: DriveFolder,
    name: string,
    deep: boolean,
    author: ContentAuthor | undefined,
  ): Promise<void> {
    const folderId = folderIdOf(parent);
    if (item.kind === 'file') {
      const body = await this.deps.data.read(item.row);
      const copy = await this.deps.uploads.storeFile({ ownerId, filename: name, folderId, body, ...(author ? { author } : {}) });
      await this.deps.properties.copy(item.row.id, copy.id);
      return;
    }
    const folder = await this.deps.folders.create(ownerId, name, folderId ?? '/');
    await this.deps.properties.copy(item.row.id, folder.id);
    if (!deep) return;
    const into: DriveFolder = { kind: 'folder', path: [...parent.path, name], row: folder };
    for await (const member of this.members(item.row.ownerId, item)) {
      // The stored name, not the WebDAV one: copied duplicates stay duplicates, each with its own suffix.
      await this.copyInto(ownerId, member, into, member.kind === 'file' ? member.row.filename : member.row.name, true, author);
    }
  }

  /** True when `inner` is `outer` or lies below it (both active folders of one drive). */
  async isWithin(inner: DavCollection, outer: DavItem): Promise<boolean> {
    if (outer.kind === 'root') return true;
    if (outer.kind !== 'folder' || inner.kind !== 'folder' || inner.row.ownerId !== outer.row.ownerId) return false;
    return this.deps.data.isWithin(outer.row.ownerId, inner.row.id, outer.row.id);
  }

  /** A file's bytes, to send. */
  asset(file: FileRow): StoredAsset {
    return this.deps.data.asset(file);
  }

  bytesCharged(ownerId: string): Promise<number> {
    return this.deps.data.bytesCharged(ownerId);
  }

  /** Bytes of the owner's kept versions: counted as used, yet room for new content. */
  versionBytes(ownerId: string): Promise<number> {
    return this.deps.data.versionBytes(ownerId);
  }
}
