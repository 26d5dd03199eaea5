import type { ShownFile } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import type { ItemShareRepository, ItemShareWithAccount } from '../../db/repositories/item-share.repository.js';
import type { DriveRepositories } from '../../db/unit-of-work.js';
import { nameKeyOf } from '../../domain/names.js';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { ItemAccess, ShareOrigin } from './item-access.js';

/** Shares looked into per search: an account receives few. */
const SHARES_SEARCHED = 20;
/** Matches read per owner before keeping those inside a share. */
const CANDIDATES_PER_OWNER = 200;
/** Other accounts' indexes a semantic search looks into. */
const OWNERS_SEARCHED = 5;

export interface SharedMatch<T> {
  row: T;
  share: ShareOrigin;
}

export interface SharedSearch {
  /** Whether the caller has shares at all: answers that looked into them are not kept by the answer cache. */
  consulted: boolean;
  files: SharedMatch<ShownFile>[];
  folders: SharedMatch<FolderRow>[];
}

/** What a recipient finds inside the files and folders others shared with them. */
export class SharedDriveService {
  constructor(
    private readonly repos: Pick<DriveRepositories, 'files' | 'folders'>,
    private readonly shares: ItemShareRepository,
    private readonly access: ItemAccess,
  ) {}

  /** The accounts (active, at most a few) that share something with the caller, most recent share first. */
  async ownersSharingWith(callerId: string): Promise<string[]> {
    const owners = new Set((await this.shares.listReceived(callerId, SHARES_SEARCHED)).map((s) => s.ownerId));
    return [...owners].slice(0, OWNERS_SEARCHED);
  }

  /** Of another account's search results, those the caller reaches through a share, each with that share. */
  async keepShared(
    callerId: string,
    found: { files: FileRow[]; folders: FolderRow[] },
  ): Promise<{ files: SharedMatch<FileRow>[]; folders: SharedMatch<FolderRow>[] }> {
    const kept: { files: SharedMatch<FileRow>[]; folders: SharedMatch<FolderRow>[] } = { files: [], folders: [] };
    for (const row of found.files) {
      const share = (await this.access.file(callerId, row.id, 'read').catch(() => undefined))?.share;
      if (share) kept.files.push({ row, share });
    }
    for (const row of found.folders) {
      const share = (await this.access.folder(callerId, row.id, 'read').catch(() => undefined))?.share;
      if (share) kept.folders.push({ row, share });
    }
    return kept;
  }

  /** Name search within what is shared with the caller, at most `limit` files and `limit` folders. */
  async search(callerId: string, term: string, limit: number, kinds: { files: boolean; folders: boolean }): Promise<SharedSearch> {
    const received = await this.shares.listReceived(callerId, SHARES_SEARCHED);
    const found: SharedSearch = { consulted: received.length > 0, files: [], folders: [] };
    if (received.length === 0) return found;
    const search = nameKeyOf(term);
    for (const [ownerId, shares] of byOwner(received)) {
      const reach = await this.reachOf(ownerId, shares);
      if (kinds.files && found.files.length < limit) {
        const files = await this.repos.files.listShown({
          ownerId,
          folderId: null,
          trashMode: false,
          search,
          sort: 'date_desc',
          limit: CANDIDATES_PER_OWNER,
        });
        for (const row of files) {
          const share = reach.files.get(row.id) ?? (row.folderId === null ? undefined : reach.folders.get(row.folderId));
          if (share && found.files.length < limit) found.files.push({ row, share });
        }
      }
      if (kinds.folders && found.folders.length < limit) {
        const folders = await this.repos.folders.list({
          ownerId,
          parentId: null,
          trashMode: false,
          search,
          sort: 'alp_asc',
          limit: CANDIDATES_PER_OWNER,
        });
        for (const row of folders) {
          const share = reach.folders.get(row.id);
          if (share && found.folders.length < limit) found.folders.push({ row, share });
        }
      }
    }
    return found;
  }

  /** Which share reaches each shared file and each folder at or below a shared folder. */
  private async reachOf(ownerId: string, shares: ItemShareWithAccount[]) {
    const files = new Map<string, ShareOrigin>();
    const folders = new Map<string, ShareOrigin>();
    for (const share of shares) {
      const origin: ShareOrigin = {
        id: share.id,
        rootId: share.itemId,
        rootType: share.itemType,
        role: share.role,
        owner: { id: ownerId, email: share.accountEmail },
      };
      if (share.itemType === 'file') files.set(share.itemId, origin);
      else for (const id of await this.repos.folders.subtreeIds(ownerId, [share.itemId])) if (!folders.has(id)) folders.set(id, origin);
    }
    return { files, folders };
  }
}

function byOwner(shares: ItemShareWithAccount[]): Map<string, ItemShareWithAccount[]> {
  const owners = new Map<string, ItemShareWithAccount[]>();
  for (const share of shares) owners.set(share.ownerId, [...(owners.get(share.ownerId) ?? []), share]);
  return owners;
}
