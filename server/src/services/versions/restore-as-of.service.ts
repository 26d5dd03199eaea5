import type { ItemRef } from '@nimbus/common';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FileVersionRow, TrashedItem } from '../../db/repositories/file-version.repository.js';
import type { DriveRepositories, UnitOfWork } from '../../db/unit-of-work.js';
import { InvalidError, NotFoundError } from '../../domain/errors.js';
import type { Clock } from '../clock.js';
import type { DriveEvents } from '../drive/drive-events.js';
import type { TrashService } from '../drive/trash.service.js';
import type { ContentAuthor, FileVersions } from './file-versions.js';

/** What a restore "as it was at" did (see RestoreAsOfResultDto). */
export interface RestoreAsOfResult {
  revertedFiles: number;
  restoredFromTrash: number;
  movedToTrash: number;
  notRecoverable: number;
}

/** What becomes of one file in a restore as it was at a time. */
export type FileDecision =
  /** Its content then is its content now (or it is a file made since, already in the trash). */
  | { kind: 'keep' }
  /** Its content then is this version: it becomes the current content again. */
  | { kind: 'revert'; version: FileVersionRow }
  /** It did not exist then: to the trash. */
  | { kind: 'trash' }
  /** It existed then, but the content it had is no longer kept (retention let it go). */
  | { kind: 'not-recoverable' };

type FileFacts = Pick<FileRow, 'uploadedAt' | 'createdAt' | 'sha256' | 'size' | 'trashedAt'>;

/**
 * The content a file had at the time restored to, as its history tells: its bytes, and the version
 * that still holds them (none when those bytes are the file's own again, or were let go).
 */
export interface ContentThen {
  sha256: string;
  size: number;
  version: FileVersionRow | undefined;
}

/** The decision for one file at time `at`, given its content then (undefined: its history no longer tells). */
export function decideFile(file: FileFacts, then: ContentThen | undefined, at: number): FileDecision {
  if (file.createdAt > at) return file.trashedAt === null ? { kind: 'trash' } : { kind: 'keep' };
  if (file.uploadedAt <= at) return { kind: 'keep' };
  if (!then) return { kind: 'not-recoverable' };
  // The same bytes are there already (a second run of the same restore): nothing to swap.
  if (then.sha256 === file.sha256 && then.size === file.size) return { kind: 'keep' };
  return then.version ? { kind: 'revert', version: then.version } : { kind: 'not-recoverable' };
}

/**
 * What the file held at `at`. A version's row covers the last time its content was the file's; a
 * content that was the file's before, then again after a restore, has its earlier time in a
 * period. The newest version stored at or before `at` is the content then only if not yet replaced
 * then: when the versions in between were thinned, an older one is a content the file did not have
 * at `at`, and the file is left as it is rather than taken further back.
 */
async function contentThen(r: DriveRepositories, file: FileRow, at: number): Promise<ContentThen | undefined> {
  const version = await r.versions.latestAtOrBefore(file.id, at);
  if (version && version.replacedAt > at) return { sha256: version.sha256, size: version.size, version };
  const period = await r.versions.periodAt(file.id, at);
  if (!period) return undefined;
  const holder = period.storageKey === file.storageKey ? undefined : await r.versions.findByKey(file.id, period.storageKey);
  return { sha256: period.sha256, size: period.size, version: holder };
}

const ROOT = '/';

/**
 * Puts a folder (or the whole drive) back as it was at a time: after a bad sync, a mass overwrite
 * or ransomware. Every file gets back the content it had then (the content it replaces is kept as a
 * version, so the restore itself can be undone); items trashed since then come back; files made
 * since then go to the trash. Nothing is deleted.
 *
 * It works in batches of files, each its own transaction under the owner's tree lock, so a drive of
 * a hundred thousand files never holds one transaction (nor, on SQLite, every other request) for
 * long. Running it again changes nothing: each file already has its content of then.
 */
export class RestoreAsOfService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly trash: TrashService,
    private readonly versions: FileVersions,
    private readonly events: DriveEvents,
    private readonly clock: Clock,
    private readonly options: { batch: number } = { batch: 200 },
  ) {}

  /**
   * `folderRef`: a folder of the owner, active, or '/' for the whole drive. `at` in epoch ms, not
   * in the future (a date to come would change nothing, and is more likely a mistyped year).
   */
  async restore(
    ownerId: string,
    folderRef: string,
    at: number,
    author: ContentAuthor = { accountId: ownerId, via: null },
  ): Promise<RestoreAsOfResult> {
    if (at > this.clock.now())
      throw new InvalidError('The time to restore to is in the future', [{ path: 'at', message: 'in the future' }]);
    const folderIds = await this.scope(ownerId, folderRef);
    const result: RestoreAsOfResult = { revertedFiles: 0, restoredFromTrash: 0, movedToTrash: 0, notRecoverable: 0 };

    // First what was trashed since: a folder coming back brings its files, whose content the walk below then sets.
    const trashed = await this.uow.repos.versions.trashedAfter(ownerId, folderIds, at);
    const tops = topsOf(trashed.folders, trashed.files);
    for (let i = 0; i < tops.length; i += this.options.batch) await this.trash.restore(ownerId, tops.slice(i, i + this.options.batch));
    result.restoredFromTrash = trashed.folders.length + trashed.files.length;
    // Files made since that were in the trash already (perhaps back now with their folder): not counted as moved there.
    const wereTrashed = new Set(trashed.newFiles);

    const chunks = folderIds === null ? [null] : chunk(folderIds, 500);
    for (const folders of chunks) {
      for (let after: string | null = null; ;) {
        const ids = await this.uow.repos.versions.filesChangedAfter(ownerId, folders, at, after, this.options.batch);
        if (ids.length === 0) break;
        after = ids[ids.length - 1]!;
        const toTrash = await this.uow.run((r) => this.batch(r, ownerId, ids, at, author, result));
        this.events.committed();
        if (toTrash.length > 0) {
          await this.trash.trash(
            ownerId,
            toTrash.map((id): ItemRef => ({ type: 'file', id })),
          );
          result.movedToTrash += toTrash.filter((id) => !wereTrashed.has(id)).length;
        }
      }
    }
    return result;
  }

  /** One batch of files in one transaction; answers the files to move to the trash. */
  private async batch(
    r: DriveRepositories,
    ownerId: string,
    ids: string[],
    at: number,
    author: ContentAuthor,
    result: RestoreAsOfResult,
  ): Promise<string[]> {
    await r.folders.lockTree(ownerId);
    const now = this.clock.now();
    const toTrash: string[] = [];
    for (const id of ids) {
      // Read again under the lock: the walk's list was read outside this transaction.
      const file = await r.files.findOwned(ownerId, id);
      if (!file) continue;
      const then = file.createdAt <= at && file.uploadedAt > at ? await contentThen(r, file, at) : undefined;
      const decision = decideFile(file, then, at);
      if (decision.kind === 'trash') toTrash.push(id);
      else if (decision.kind === 'not-recoverable') result.notRecoverable++;
      else if (decision.kind === 'revert') {
        const { version } = decision;
        // swapContent keeps the time the version records as a period before its row goes.
        const swapped = await this.versions.swapContent(r, file, version, author, now);
        await this.events.blobsReleased(r.db, ownerId, swapped.released);
        await this.events.fileStored(r.db, swapped.file);
        result.revertedFiles++;
      }
    }
    return toTrash;
  }

  /** The folders whose files the restore covers, the folder's own included; null for the whole drive. */
  private async scope(ownerId: string, folderRef: string): Promise<string[] | null> {
    if (folderRef === ROOT) return null;
    const folder = await this.uow.repos.folders.findOwned(ownerId, folderRef);
    if (!folder || folder.trashedAt !== null) throw new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
    return this.uow.repos.folders.subtreeIds(ownerId, [folder.id]);
  }
}

/**
 * The items to hand to the trash's restore: those trashed themselves, or with a folder that does
 * not come back (made after the time restored to); the others come back with their folder.
 */
function topsOf(folders: TrashedItem[], files: TrashedItem[]): ItemRef[] {
  const returning = new Set(folders.map((f) => f.id));
  const top = (item: TrashedItem) => item.trashedVia === null || !returning.has(item.trashedVia);
  // The last trashed first: an item trashed before its folder was trashed then comes back after
  // that folder, into it (the trash restores into the root an item whose folder is still trashed).
  const items = [
    ...folders.filter(top).map((f) => ({ ref: { type: 'folder', id: f.id } as ItemRef, at: f.trashedAt })),
    ...files.filter(top).map((f) => ({ ref: { type: 'file', id: f.id } as ItemRef, at: f.trashedAt })),
  ];
  return items.sort((a, b) => b.at - a.at).map((i) => i.ref);
}

function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
