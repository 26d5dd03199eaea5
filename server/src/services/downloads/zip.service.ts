import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { InvalidError, NotFoundError } from '../../domain/errors.js';
import type { EncryptedStore } from '../../storage/blob-store.js';
import { UniqueNames } from './zip-names.js';
import { zipLength, zipStream, type ZipEntry } from './zip-writer.js';

const FILE_PAGE = 1000;
/**
 * A tree of at most this many entries is listed before its archive starts, so the archive's length
 * is known and a browser shows how much is left. A bigger one streams as it is walked, without a
 * length: listing it first would hold every entry in memory and delay the first byte.
 */
export const ZIP_ENTRIES_MEASURED = 10_000;
/** The zip format stores a name's length in 16 bits. */
export const ZIP_PATH_MAX_BYTES = 65_535;

/**
 * A path too long for the zip format (a very deep tree of long names) moves to a `long paths`
 * folder under a name made from its own digest and its last segment: the archive stays valid,
 * and the same tree always zips the same way.
 */
export function fitZipPath(path: string): string {
  if (Buffer.byteLength(path) <= ZIP_PATH_MAX_BYTES) return path;
  const directory = path.endsWith('/');
  const last = path.split('/').filter(Boolean).pop() ?? '';
  const digest = createHash('sha256').update(path).digest('hex').slice(0, 16);
  const tail = Buffer.from(last)
    .subarray(0, 200)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return `long paths/${digest} ${tail}${directory ? '/' : ''}`;
}

export interface ZipDownload {
  filename: string;
  stream: Readable;
  /** The archive's length in bytes, when the tree was small enough to list first. */
  length?: number;
}

/** Lists up to ZIP_ENTRIES_MEASURED entries, then zips them and whatever follows. */
async function zipDownload(filename: string, entries: AsyncIterable<ZipEntry>): Promise<ZipDownload> {
  const source = entries[Symbol.asyncIterator]();
  const listed: ZipEntry[] = [];
  while (listed.length <= ZIP_ENTRIES_MEASURED) {
    const next = await source.next();
    if (next.done)
      return { filename, stream: Readable.from(zipStream(listedThen(listed)), { objectMode: false }), length: zipLength(listed) };
    listed.push(next.value);
  }
  return { filename, stream: Readable.from(zipStream(listedThen(listed, source)), { objectMode: false }) };
}

async function* listedThen(listed: ZipEntry[], rest?: AsyncIterator<ZipEntry>): AsyncGenerator<ZipEntry> {
  yield* listed;
  if (rest) yield* { [Symbol.asyncIterator]: () => rest };
}

/**
 * Zips folders and files of one owner as a stream. Every requested id is checked before the
 * archive exists (another owner's or a trashed item: not found). Then the tree is walked, one
 * folder's listing at a time (beyond its first ZIP_ENTRIES_MEASURED entries, as the archive is
 * read), and each file is decrypted only when the archive reaches it. Entries are stored, not deflated: most large files are already compressed
 * media, and storing runs at the speed of decryption.
 */
export class ZipService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: EncryptedStore,
  ) {}

  async open(ownerId: string, folderIds: string[], fileIds: string[]): Promise<ZipDownload> {
    if (folderIds.length === 0 && fileIds.length === 0) throw new InvalidError('Choose at least one file or folder');
    const requested = await this.resolve(folderIds, (id) => this.uow.repos.folders.findOwned(ownerId, id), 'FOLDER_NOT_FOUND');
    const chosenFiles = await this.resolve(fileIds, (id) => this.uow.repos.files.findOwned(ownerId, id), 'FILE_NOT_FOUND');
    // Anything inside another chosen folder is in the archive once, through that folder.
    const below = new Set<string>();
    for (const folder of requested) {
      for (const id of await this.uow.repos.folders.subtreeIds(ownerId, [folder.id])) if (id !== folder.id) below.add(id);
    }
    const folders = requested.filter((f) => !below.has(f.id));
    const inside = new Set([...below, ...folders.map((f) => f.id)]);
    const files = chosenFiles.filter((f) => f.folderId === null || !inside.has(f.folderId));
    const filename = folders.length === 1 && files.length === 0 ? `${folders[0]!.name}.zip` : 'download.zip';
    return zipDownload(filename, this.entries(ownerId, folders, files));
  }

  /** The owner's whole active drive (never the trash) as one zip, folders as they are nested. */
  openDrive(ownerId: string): Promise<ZipDownload> {
    const entries = async function* (this: ZipService): AsyncGenerator<ZipEntry> {
      const top = new UniqueNames();
      const folders = await this.uow.repos.folders.list({ ownerId, parentId: null, trashMode: false, sort: 'alp_asc' });
      const roots = folders.map((folder) => ({ folder, path: `${top.claim(folder.name, true)}/` }));
      for await (const file of this.filesIn(ownerId, null)) yield this.fileEntry(file, top.claim(file.filename));
      for (const root of roots) yield* this.tree(ownerId, root);
    };
    return zipDownload('my-drive.zip', entries.call(this));
  }

  private async resolve<T extends { trashedAt: number | null }>(
    ids: string[],
    find: (id: string) => Promise<T | undefined>,
    code: 'FILE_NOT_FOUND' | 'FOLDER_NOT_FOUND',
  ): Promise<T[]> {
    const found: T[] = [];
    for (const id of new Set(ids)) {
      const item = await find(id);
      if (!item || item.trashedAt !== null)
        throw new NotFoundError(code, code === 'FILE_NOT_FOUND' ? 'File not found' : 'Folder not found');
      found.push(item);
    }
    return found;
  }

  private async *entries(ownerId: string, folders: FolderRow[], files: FileRow[]): AsyncGenerator<ZipEntry> {
    const top = new UniqueNames();
    const roots = folders.map((folder) => ({ folder, path: `${top.claim(folder.name, true)}/` }));
    for (const file of files) yield this.fileEntry(file, top.claim(file.filename));
    for (const root of roots) yield* this.tree(ownerId, root);
  }

  /** Depth-first; trashed children are never listed, so nothing trashed gets in. */
  private async *tree(ownerId: string, root: { folder: FolderRow; path: string }): AsyncGenerator<ZipEntry> {
    const stack = [root];
    // A folder is zipped once even if a damaged tree leads back to it.
    const visited = new Set<string>();
    for (let next = stack.pop(); next; next = stack.pop()) {
      const { folder, path } = next;
      if (visited.has(folder.id)) continue;
      visited.add(folder.id);
      const names = new UniqueNames();
      const children = await this.uow.repos.folders.list({ ownerId, parentId: folder.id, trashMode: false, sort: 'alp_asc' });
      const subfolders = children.map((child) => ({ folder: child, path: `${path}${names.claim(child.name, true)}/` }));
      stack.push(...subfolders.reverse());
      let count = children.length;
      for await (const file of this.filesIn(ownerId, folder.id)) {
        yield this.fileEntry(file, `${path}${names.claim(file.filename)}`);
        count++;
      }
      // Empty folders are kept as directory entries; others are implied by their contents.
      if (count === 0) yield { kind: 'directory', path: fitZipPath(path), mtime: new Date(folder.updatedAt) };
    }
  }

  private fileEntry(file: FileRow, path: string): ZipEntry {
    return {
      kind: 'file',
      path: fitZipPath(path),
      size: file.size,
      mtime: new Date(file.uploadedAt),
      crc: file.crc32 ?? undefined,
      open: () => this.store.pieces(file.storageKey, file.wrappedKey, file.size),
    };
  }

  private async *filesIn(ownerId: string, folderId: string | null): AsyncGenerator<FileRow> {
    let cursor: { uploadedAt: number; nameKey: string; id: string } | undefined;
    for (;;) {
      const page = await this.uow.repos.files.list({ ownerId, folderId, trashMode: false, sort: 'alp_asc', limit: FILE_PAGE, cursor });
      yield* page;
      const last = page.at(-1);
      if (!last || page.length < FILE_PAGE) return;
      cursor = { uploadedAt: last.uploadedAt, nameKey: last.nameKey, id: last.id };
    }
  }
}
