import { ITEM_SHARE_LIMITS, type CreateItemShareBody } from '@nimbus/common';
import type { AccountRepository } from '../../db/repositories/account.repository.js';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import type { ItemShareRepository, ItemShareRow, ItemShareWithAccount } from '../../db/repositories/item-share.repository.js';
import type { DriveRepositories } from '../../db/unit-of-work.js';
import type { ShareRole } from '../../db/schema.js';
import { ConflictError, InvalidError, NotFoundError } from '../../domain/errors.js';
import type { Logger } from '../../logger.js';
import type { Mailer } from '../../mail/mailer.js';
import { itemSharedMessage } from '../../mail/templates.js';
import { newId } from '../../security/ids.js';
import { emailKeyOf } from '../accounts/account.service.js';
import type { SecurityRecorder } from '../accounts/security-log.service.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';

/** "Shared with me" shows at most this many shares. */
const RECEIVED_MAX = 500;

export type { ItemShareWithAccount } from '../../db/repositories/item-share.repository.js';

type ItemType = 'file' | 'folder';

export interface ReceivedShare {
  share: ItemShareWithAccount;
  file?: FileRow;
  folder?: FolderRow;
}

function notFound(type: ItemType): NotFoundError {
  return type === 'file'
    ? new NotFoundError('FILE_NOT_FOUND', 'File not found')
    : new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
}

function shareNotFound(): NotFoundError {
  return new NotFoundError('SHARE_NOT_FOUND', 'Share not found');
}

/** Sharing one's files and folders with other accounts of the server, and leaving what others shared. */
export class ItemShareService {
  constructor(
    private readonly repos: Pick<DriveRepositories, 'files' | 'folders'>,
    private readonly shares: ItemShareRepository,
    private readonly accounts: AccountRepository,
    private readonly securityLog: SecurityRecorder,
    private readonly mailer: Mailer | null,
    private readonly clock: Clock,
    private readonly options: { appUrl: string },
    private readonly log: Logger,
  ) {}

  async list(ownerId: string, itemType: ItemType, itemId: string): Promise<ItemShareWithAccount[]> {
    await this.ownedItem(ownerId, itemType, itemId);
    return this.shares.listForItem(ownerId, itemId);
  }

  /** Shares an item, or changes the role of the account's existing share of it (`created` false). */
  async create(ownerId: string, input: CreateItemShareBody, caller?: Caller): Promise<{ share: ItemShareWithAccount; created: boolean }> {
    const item = await this.ownedItem(ownerId, input.itemType, input.itemId);
    if (item.trashedAt !== null) throw notFound(input.itemType);
    const recipient = await this.accounts.findByEmailKey(emailKeyOf(input.email));
    if (recipient?.id === ownerId) throw new InvalidError('You cannot share an item with yourself', undefined, 'SHARE_WITH_SELF');
    if (!recipient || recipient.disabledAt !== null || recipient.deletedAt !== null) {
      throw new NotFoundError('RECIPIENT_NOT_FOUND', 'No account uses this e-mail');
    }
    const name = nameOf(item);
    const details = { name, itemType: input.itemType, recipient: recipient.email };
    const now = this.clock.now();
    const existing = await this.shares.findForRecipient(item.id, recipient.id);
    if (existing) {
      if (existing.role !== input.role) {
        await this.shares.updateRole(existing.id, input.role, now);
        await this.securityLog.record(ownerId, { type: 'item-share-changed', caller, details });
      }
      return { share: { ...existing, role: input.role, updatedAt: now, accountEmail: recipient.email }, created: false };
    }
    if ((await this.shares.countForItem(item.id)) >= ITEM_SHARE_LIMITS.sharesPerItem) {
      throw new ConflictError('TOO_MANY_SHARES', `An item can be shared with at most ${ITEM_SHARE_LIMITS.sharesPerItem} accounts`);
    }
    const row: ItemShareRow = {
      id: newId(),
      ownerId,
      itemType: input.itemType,
      itemId: item.id,
      recipientId: recipient.id,
      role: input.role,
      createdAt: now,
      updatedAt: now,
    };
    await this.shares.insert(row);
    await this.shares.bumpDriveVersion(recipient.id);
    await this.securityLog.record(ownerId, { type: 'item-shared', caller, details });
    const owner = await this.accounts.findById(ownerId);
    this.tellRecipient(recipient.email, owner?.email ?? 'Someone', name, input.role);
    return { share: { ...row, accountEmail: recipient.email }, created: true };
  }

  async changeRole(ownerId: string, id: string, role: ShareRole, caller?: Caller): Promise<ItemShareWithAccount> {
    const share = await this.ownedShare(ownerId, id);
    const recipient = await this.accounts.findById(share.recipientId);
    if (share.role !== role) {
      await this.shares.updateRole(id, role, this.clock.now());
      await this.securityLog.record(ownerId, {
        type: 'item-share-changed',
        caller,
        details: await this.detailsOf(share, recipient?.email),
      });
    }
    return { ...share, role, accountEmail: recipient?.email ?? '' };
  }

  async remove(ownerId: string, id: string, caller?: Caller): Promise<void> {
    const share = await this.ownedShare(ownerId, id);
    const recipient = await this.accounts.findById(share.recipientId);
    await this.shares.delete(id);
    await this.shares.bumpDriveVersion(share.recipientId);
    await this.securityLog.record(ownerId, { type: 'item-share-removed', caller, details: await this.detailsOf(share, recipient?.email) });
  }

  /** The recipient gives up a share. */
  async leave(recipientId: string, id: string): Promise<void> {
    const share = await this.shares.findById(id);
    if (!share || share.recipientId !== recipientId) throw shareNotFound();
    await this.shares.delete(id);
    await this.shares.bumpDriveVersion(recipientId);
  }

  /** What others shared with the account, newest first; trashed or deleted items are left out. */
  async received(recipientId: string): Promise<ReceivedShare[]> {
    const rows = await this.shares.listReceived(recipientId, RECEIVED_MAX);
    const found: ReceivedShare[] = [];
    for (const share of rows) {
      const item =
        share.itemType === 'file' ? await this.repos.files.findById(share.itemId) : await this.repos.folders.findById(share.itemId);
      if (!item || item.ownerId !== share.ownerId) {
        // The item was deleted for good (or with the trash's retention): its share goes with it.
        await this.shares.delete(share.id);
        continue;
      }
      if (item.trashedAt !== null) continue;
      found.push(share.itemType === 'file' ? { share, file: item as FileRow } : { share, folder: item as FolderRow });
    }
    return found;
  }

  /** Items deleted for good take their shares along. */
  async forgetItems(itemIds: readonly string[]): Promise<void> {
    await this.shares.deleteForItems(itemIds);
  }

  /** Housekeeping: shares whose item is gone reach nothing; their rows go too. */
  pruneOrphans(): Promise<void> {
    return this.shares.deleteOrphans();
  }

  private async ownedItem(ownerId: string, type: ItemType, id: string): Promise<FileRow | FolderRow> {
    const item = type === 'file' ? await this.repos.files.findOwned(ownerId, id) : await this.repos.folders.findOwned(ownerId, id);
    if (!item) throw notFound(type);
    return item;
  }

  private async ownedShare(ownerId: string, id: string): Promise<ItemShareRow> {
    const share = await this.shares.findById(id);
    if (!share || share.ownerId !== ownerId) throw shareNotFound();
    return share;
  }

  private async detailsOf(share: ItemShareRow, recipient: string | undefined) {
    const item =
      share.itemType === 'file' ? await this.repos.files.findById(share.itemId) : await this.repos.folders.findById(share.itemId);
    return { name: item ? nameOf(item) : undefined, itemType: share.itemType, recipient };
  }

  /** Best effort: the share stands whether or not the mail goes out. */
  private tellRecipient(to: string, sharedBy: string, itemName: string, role: ShareRole): void {
    if (!this.mailer) return;
    const link = `${this.options.appUrl}/shared-with-me`;
    this.mailer.send(itemSharedMessage(to, sharedBy, itemName, role, link)).catch((err: unknown) => {
      this.log.warn({ err }, 'could not e-mail the recipient of a share');
    });
  }
}

function nameOf(item: FileRow | FolderRow): string {
  return 'filename' in item ? item.filename : item.name;
}
