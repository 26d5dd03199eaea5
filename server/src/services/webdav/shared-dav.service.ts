import type { ItemRef } from '@nimbus/common';
import { LIMITS } from '@nimbus/common';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import { NotFoundError } from '../../domain/errors.js';
import type { AccessNeed, ItemAccess, ItemAccessAnswer } from '../sharing/item-access.js';
import type { ItemShareService } from '../sharing/item-share.service.js';

/** The name of the virtual collection at the top of a WebDAV drive. */
export const SHARED_WITH_ME = 'Shared with me';

/** One item shared with the account, under the WebDAV name it shows with in `Shared with me`. */
export type SharedEntry =
  { name: string; shareId: string; type: 'file'; row: FileRow } | { name: string; shareId: string; type: 'folder'; row: FolderRow };

/**
 * What WebDAV shows of the items others shared with an account. Read fresh on every call (a
 * revoked share ends the next request), and every decision about a shared item is ItemAccess's.
 */
export class SharedDavService {
  constructor(
    private readonly itemShares: ItemShareService,
    private readonly access: ItemAccess,
  ) {}

  /**
   * The shared items with unique names. The oldest share of a name keeps it; later ones show with
   * the owner's e-mail (`Photos (ann@example.com)`), and with the start of the share id as well
   * when one owner shared two items of one name: names that stay as long as the older share does.
   */
  async entries(callerId: string): Promise<SharedEntry[]> {
    const received = (await this.itemShares.received(callerId)).sort(
      (a, b) => a.share.createdAt - b.share.createdAt || (a.share.id < b.share.id ? -1 : 1),
    );
    const taken = new Set<string>();
    const entries: SharedEntry[] = [];
    const later: typeof received = [];
    for (const r of received) {
      const name = r.file ? r.file.filename : r.folder!.name;
      if (taken.has(name)) {
        later.push(r);
        continue;
      }
      taken.add(name);
      entries.push(entryOf(r.share.id, name, r));
    }
    for (const r of later) {
      const name = r.file ? r.file.filename : r.folder!.name;
      const candidates = [suffixed(name, r.share.accountEmail), suffixed(name, `${r.share.accountEmail} ~${r.share.id.slice(0, 8)}`)];
      const free = candidates.find((c) => !taken.has(c) && Buffer.byteLength(c) <= LIMITS.nameMaxBytes) ?? suffixed(name, `~${r.share.id}`);
      taken.add(free);
      entries.push(entryOf(r.share.id, free, r));
    }
    return entries;
  }

  /** ItemAccess's answer for a shared item; null when the caller may no longer see it at all. */
  async reach(callerId: string, ref: ItemRef, need: AccessNeed): Promise<ItemAccessAnswer | null> {
    try {
      return await this.access.item(callerId, ref, need);
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  }
}

function entryOf(shareId: string, name: string, r: { file?: FileRow; folder?: FolderRow }): SharedEntry {
  return r.file ? { name, shareId, type: 'file', row: r.file } : { name, shareId, type: 'folder', row: r.folder! };
}

/** `report.pdf` → `report (tag).pdf`: the extension stays last, so clients still know the type. */
function suffixed(name: string, tag: string): string {
  const dot = name.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return `${base} (${tag})${ext}`;
}
