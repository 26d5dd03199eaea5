import { SHARE_LIMITS, type CreateShareLinkBody, type UpdateShareLinkBody } from '@nimbus/common';
import type { Updateable } from 'kysely';
import type { ShareLinkRepository, ShareLinkRow, DropOriginRow } from '../../db/repositories/share-link.repository.js';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { ShareLinkTable } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { InvalidError, NotFoundError } from '../../domain/errors.js';
import { newId, newSecret } from '../../security/ids.js';
import { hashPassword } from '../../security/password.js';
import type { Clock } from '../clock.js';
import type { SecurityRecorder } from '../accounts/security-log.service.js';

export type { DropOriginRow } from '../../db/repositories/share-link.repository.js';

/** A link with what its owner sees of its item. */
export interface OwnedLink {
  link: ShareLinkRow;
  itemName: string;
  /** The item is in the trash: the link answers nothing until it is restored. */
  itemTrashed: boolean;
}

/** The Shared page lists at most this many of the share popup's public and one-time file links. */
const MAX_FILE_LINKS_LISTED = 1_000;

function linkNotFound(): NotFoundError {
  return new NotFoundError('NOT_FOUND', 'Link not found');
}

/** Whether a link answers visitors now (its item's state aside). */
export function isLive(link: ShareLinkRow, now: number): boolean {
  if (link.expiresAt !== null && link.expiresAt <= now) return false;
  if (link.kind === 'view' && link.maxDownloads !== null && link.downloads >= link.maxDownloads) return false;
  if (link.kind === 'drop' && link.maxFiles !== null && link.filesReceived >= link.maxFiles) return false;
  return true;
}

/**
 * The owner's side of share links: create, list, change and revoke links to their files and
 * folders. Every call names the owner; another account's item or link is simply not found.
 */
export class ShareLinkService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly links: ShareLinkRepository,
    private readonly clock: Clock,
    private readonly security: SecurityRecorder | null = null,
  ) {}

  async create(ownerId: string, body: CreateShareLinkBody): Promise<OwnedLink> {
    const item = await this.activeItem(ownerId, body.itemType, body.itemId);
    if (body.kind === 'drop' && body.itemType !== 'folder') throw new InvalidError('Only a folder can receive files through a link');
    if ((await this.links.countForItem(ownerId, body.itemId)) >= SHARE_LIMITS.linksPerItem)
      throw new InvalidError(`An item can have at most ${SHARE_LIMITS.linksPerItem} links`);
    const now = this.clock.now();
    const expiresAt = this.expiry(body.expiresAt, now);
    const row: ShareLinkRow = {
      id: newId(),
      ownerId,
      kind: body.kind,
      itemType: body.itemType,
      itemId: item.id,
      token: newSecret(),
      passwordHash: body.password ? await hashPassword(body.password) : null,
      expiresAt: expiresAt ?? null,
      maxDownloads: body.kind === 'view' ? (body.maxDownloads ?? null) : null,
      downloads: 0,
      allowDownload: body.allowDownload === false ? 0 : 1,
      maxFileBytes: body.kind === 'drop' ? (body.maxFileBytes ?? null) : null,
      maxFiles: body.kind === 'drop' ? (body.maxFiles ?? null) : null,
      filesReceived: 0,
      createdAt: now,
      lastAccessAt: null,
    };
    await this.links.insert(row);
    await this.security?.record(ownerId, {
      type: 'share-link-created',
      details: { name: item.name, itemType: body.itemType, kind: body.kind },
    });
    return { link: row, itemName: item.name, itemTrashed: false };
  }

  /** Every link of the owner, or of one item, newest first. Links whose item is gone are dropped. */
  async list(ownerId: string, itemId?: string): Promise<OwnedLink[]> {
    const rows = await this.links.listOwned(ownerId, itemId);
    const owned: OwnedLink[] = [];
    const gone: string[] = [];
    for (const link of rows) {
      const item = await this.item(ownerId, link.itemType, link.itemId);
      if (!item) gone.push(link.itemId);
      else owned.push({ link, itemName: item.name, itemTrashed: item.trashed });
    }
    await this.links.deleteForItems(gone);
    return owned;
  }

  async update(ownerId: string, id: string, body: UpdateShareLinkBody): Promise<OwnedLink> {
    const link = await this.links.findOwned(ownerId, id);
    if (!link) throw linkNotFound();
    const changes: Updateable<ShareLinkTable> = {};
    if (body.password !== undefined) changes.passwordHash = body.password === null ? null : await hashPassword(body.password);
    if (body.expiresAt !== undefined) changes.expiresAt = this.expiry(body.expiresAt, this.clock.now()) ?? null;
    if (body.allowDownload !== undefined) changes.allowDownload = body.allowDownload ? 1 : 0;
    if (link.kind === 'view' && body.maxDownloads !== undefined) changes.maxDownloads = body.maxDownloads;
    if (link.kind === 'drop' && body.maxFiles !== undefined) changes.maxFiles = body.maxFiles;
    if (link.kind === 'drop' && body.maxFileBytes !== undefined) changes.maxFileBytes = body.maxFileBytes;
    if (Object.keys(changes).length > 0) await this.links.update(ownerId, id, changes);
    const updated = await this.links.findOwned(ownerId, id);
    const item = updated && (await this.item(ownerId, updated.itemType, updated.itemId));
    if (!updated || !item) throw linkNotFound();
    await this.security?.record(ownerId, {
      type: 'share-link-updated',
      details: { name: item.name, itemType: updated.itemType, kind: updated.kind },
    });
    return { link: updated, itemName: item.name, itemTrashed: item.trashed };
  }

  async revoke(ownerId: string, id: string): Promise<void> {
    const link = await this.links.findOwned(ownerId, id);
    if (!link || !(await this.links.deleteOwned(ownerId, id))) throw linkNotFound();
    const item = await this.item(ownerId, link.itemType, link.itemId);
    await this.security?.record(ownerId, {
      type: 'share-link-revoked',
      details: { itemType: link.itemType, kind: link.kind, ...(item ? { name: item.name } : {}) },
    });
  }

  /** Files with a public or one-time link made in the share popup, for the list of everything shared. */
  fileLinks(ownerId: string): Promise<FileRow[]> {
    return this.uow.repos.files.linked(ownerId, MAX_FILE_LINKS_LISTED);
  }

  async dropOrigin(ownerId: string, fileId: string): Promise<DropOriginRow> {
    const origin = await this.links.findDropOrigin(ownerId, fileId);
    if (!origin) throw new NotFoundError('FILE_NOT_FOUND', 'This file did not come through a link');
    return origin;
  }

  /** An expiry must lie ahead; undefined and null mean none. */
  private expiry(iso: string | null | undefined, now: number): number | null | undefined {
    if (iso === undefined || iso === null) return iso;
    const at = Date.parse(iso);
    if (!(at > now)) throw new InvalidError('The expiry date must be in the future');
    return at;
  }

  private async activeItem(ownerId: string, type: 'file' | 'folder', id: string): Promise<{ id: string; name: string }> {
    const item = await this.item(ownerId, type, id);
    if (!item || item.trashed)
      throw type === 'file'
        ? new NotFoundError('FILE_NOT_FOUND', 'File not found')
        : new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
    return item;
  }

  private async item(
    ownerId: string,
    type: 'file' | 'folder',
    id: string,
  ): Promise<{ id: string; name: string; trashed: boolean } | undefined> {
    if (type === 'file') {
      const file = await this.uow.repos.files.findOwned(ownerId, id);
      return file && { id: file.id, name: file.filename, trashed: file.trashedAt !== null };
    }
    const folder = await this.uow.repos.folders.findOwned(ownerId, id);
    return folder && { id: folder.id, name: folder.name, trashed: folder.trashedAt !== null };
  }
}
