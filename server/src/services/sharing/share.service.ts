import { createHash, timingSafeEqual } from 'node:crypto';
import { AccountRepository } from '../../db/repositories/account.repository.js';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { LinkType } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../domain/errors.js';
import { newSecret } from '../../security/ids.js';
import type { Clock } from '../clock.js';
import type { FileService } from '../drive/file.service.js';
import type { SecurityRecorder } from '../accounts/security-log.service.js';

export interface PublicDownload {
  file: FileRow;
  /** A one-time link: the caller serves the whole body once and never a range. */
  isOneTime: boolean;
}

/** Digests first, so the comparison takes the same time whatever the lengths or contents. */
function sameToken(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function notFound(): NotFoundError {
  return new NotFoundError('FILE_NOT_FOUND', 'File not found');
}

/**
 * Share links. The owner sets a file public (any number of downloads) or one-time (exactly one
 * download, then private); anonymous callers need the file id and its link token. A wrong token,
 * a private or a trashed file all look the same: not found.
 */
export class ShareService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly files: FileService,
    private readonly clock: Clock,
    private readonly security: SecurityRecorder | null = null,
  ) {}

  makePublic(ownerId: string, id: string): Promise<FileRow> {
    return this.setLink(ownerId, id, 'public');
  }

  makeOneTime(ownerId: string, id: string): Promise<FileRow> {
    return this.setLink(ownerId, id, 'one');
  }

  async removeLink(ownerId: string, id: string): Promise<FileRow> {
    const file = await this.files.get(ownerId, id);
    await this.uow.repos.files.setLink(file.id, null, null, this.clock.now());
    await this.security?.record(ownerId, { type: 'file-link-removed', details: { name: file.filename, itemType: 'file' } });
    return this.files.get(ownerId, id);
  }

  /** What the public download page shows. Never consumes a one-time link. */
  async publicInfo(id: string, token: string): Promise<FileRow> {
    return this.shared(id, token);
  }

  /**
   * The file behind a link, for downloading. `consume` false (a HEAD request) looks without
   * using up a one-time link; true takes it atomically, so only one caller ever gets the file.
   */
  async openDownload(id: string, token: string, consume: boolean): Promise<PublicDownload> {
    const file = await this.shared(id, token);
    if (file.linkType !== 'one') return { file, isOneTime: false };
    if (!consume) return { file, isOneTime: true };
    // The token was already compared in constant time; the statement repeats it so that a link
    // replaced or removed in the meantime is not consumed.
    const taken = await this.uow.repos.files.consumeOneTimeLink(file.id, file.linkToken ?? '', this.clock.now());
    if (!taken) throw notFound();
    return { file: taken, isOneTime: true };
  }

  private async shared(id: string, token: string): Promise<FileRow> {
    const file = await this.uow.repos.files.findById(id);
    if (!file || file.linkType === null || file.linkToken === null || file.trashedAt !== null) throw notFound();
    if (!sameToken(file.linkToken, token)) throw notFound();
    // A disabled or deleted account's links answer as if they did not exist.
    if (!(await new AccountRepository(this.uow.repos.db).isActive(file.ownerId))) throw notFound();
    return file;
  }

  private async setLink(ownerId: string, id: string, linkType: LinkType): Promise<FileRow> {
    const file = await this.files.get(ownerId, id);
    if (file.trashedAt !== null) throw notFound();
    await this.uow.repos.files.setLink(file.id, linkType, newSecret(), this.clock.now());
    await this.security?.record(ownerId, {
      type: linkType === 'public' ? 'file-link-public' : 'file-link-one-time',
      details: { name: file.filename, itemType: 'file' },
    });
    return this.files.get(ownerId, id);
  }
}
