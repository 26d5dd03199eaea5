import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import type { FolderService } from '../drive/folder.service.js';
import type { TrashService } from '../drive/trash.service.js';
import type { UploadService } from './upload.service.js';
import type { ContentAuthor } from '../versions/file-versions.js';

/** Files undone per transaction when a folder upload fails, and the pause between two batches. */
const DISCARD_BATCH = 500;
const DISCARD_GAP_MS = 2;

/** One folder upload: files land in folders made along their relative paths, once per path. */
export class FolderUpload {
  readonly folders: FolderRow[] = [];
  private readonly fileIds: string[] = [];
  private readonly folderByPath = new Map<string, string>();
  private root: Promise<string | null> | null = null;

  constructor(
    private readonly ownerId: string,
    private readonly deps: { uploads: UploadService; folders: FolderService; trash: TrashService },
    /** Who uploads, when not the owner (an editor of a shared folder): the files' contents are theirs. */
    private readonly author?: ContentAuthor,
  ) {}

  /** Stores one file at `relativePath` (e.g. `photos/2024/a.jpg`) below `parent` ('/' or a folder id). */
  async store(parent: string, relativePath: string, body: Readable): Promise<FileRow> {
    this.root ??= this.deps.folders.resolveActiveParent(this.ownerId, parent);
    const root = await this.root;
    const segments = relativePath.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
    const name = segments.pop() ?? 'Untitled';
    const folderId = await this.folderFor(root, segments);
    const file = await this.deps.uploads.storeFile({
      ownerId: this.ownerId,
      filename: name,
      folderId,
      body,
      ...(this.author ? { author: this.author } : {}),
    });
    this.fileIds.push(file.id);
    return file;
  }

  /**
   * Undoes a failed upload, so a retry makes no duplicates: what it created goes, with its bytes.
   * The files go a batch per transaction, with a pause between batches: on SQLite, whose statements
   * run on the event loop, thousands at once held every other request for most of a second.
   */
  async discard(): Promise<void> {
    for (let i = 0; i < this.fileIds.length; i += DISCARD_BATCH) {
      if (i > 0) await sleep(DISCARD_GAP_MS);
      await this.deps.trash.discard(this.ownerId, this.fileIds.slice(i, i + DISCARD_BATCH), []);
    }
    await this.deps.trash.discard(
      this.ownerId,
      [],
      this.folders.map((f) => f.id),
    );
  }

  private async folderFor(root: string | null, segments: string[]): Promise<string | null> {
    let parent = root;
    for (let i = 0; i < segments.length; i++) {
      const key = segments.slice(0, i + 1).join('/');
      let id = this.folderByPath.get(key);
      if (!id) {
        const folder = await this.deps.folders.create(this.ownerId, segments[i]!, parent ?? '/');
        this.folders.push(folder);
        id = folder.id;
        this.folderByPath.set(key, id);
      }
      parent = id;
    }
    return parent;
  }
}

export class FolderUploadService {
  constructor(private readonly deps: { uploads: UploadService; folders: FolderService; trash: TrashService }) {}

  begin(ownerId: string, author?: ContentAuthor): FolderUpload {
    return new FolderUpload(ownerId, this.deps, author);
  }
}
