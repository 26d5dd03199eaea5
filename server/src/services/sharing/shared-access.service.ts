import type { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import { AccountRepository } from '../../db/repositories/account.repository.js';
import type { LoginThrottleRepository, ThrottlePolicy } from '../../db/repositories/login-throttle.repository.js';
import type { ShareLinkRepository, ShareLinkRow } from '../../db/repositories/share-link.repository.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { DomainError, ForbiddenError, NotFoundError, TooManyError, UnauthorizedError } from '../../domain/errors.js';
import { nameKeyOf, sanitizeName } from '../../domain/names.js';
import { isBrowserImage } from '../../media/formats.js';
import { addressGroupOf } from '../../security/address-group.js';
import { admitHashing, verifyPassword } from '../../security/password.js';
import type { Clock } from '../clock.js';
import type { MediaService } from '../media/media.service.js';
import { reserveAttempts, type Limited } from '../accounts/attempt-budget.js';
import { isLive } from './share-link.service.js';
import type { EncryptedStore } from '../../storage/blob-store.js';
import { fileAsset, type StoredAsset } from '../downloads/stored-asset.js';
import type { UploadService } from '../uploads/upload.service.js';
import type { TusUploadService } from '../uploads/tus-upload.service.js';
import type { TusUploadRow } from '../../db/repositories/tus-upload.repository.js';
import type { ZipDownload, ZipService } from '../downloads/zip.service.js';
import type { FileCursor } from '../../db/repositories/file.repository.js';

/** A visitor who typed the password keeps access this long (the cookie and its signature). */
export const UNLOCK_TTL_MS = 12 * 60 * 60 * 1000;
const FIFTEEN_MINUTES = { windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** The hard limit: guesses at one link from one address group. */
const GUESSES_PER_LINK_AND_ADDRESS: ThrottlePolicy = { maxFailures: 10, ...FIFTEEN_MINUTES };
/** Guesses from one address group across links. */
const GUESSES_PER_ADDRESS: ThrottlePolicy = { maxFailures: 30, ...FIFTEEN_MINUTES };
/** Guesses at one link from everywhere: high enough that one guesser never locks other visitors out. */
const GUESSES_PER_LINK: ThrottlePolicy = { maxFailures: 100, ...FIFTEEN_MINUTES };
const FILES_PER_PAGE = 100;
/** A shared folder's subfolders shown at most, per folder. */
const FOLDERS_PER_LISTING = 1_000;
const MAX_DEPTH = 64;

export interface SharedLink {
  link: ShareLinkRow;
  /** Whether the visitor may see it (no password, or the password given). */
  unlocked: boolean;
  file?: FileRow;
  folder?: FolderRow;
}

export interface SharedListing {
  folder: FolderRow;
  path: FolderRow[];
  folders: FolderRow[];
  files: FileRow[];
  next: string | null;
}

function gone(): NotFoundError {
  return new NotFoundError('NOT_FOUND', 'This link does not exist or was removed');
}
function fileGone(): NotFoundError {
  return new NotFoundError('FILE_NOT_FOUND', 'File not found');
}

/**
 * What a visitor holding a link may do: see the shared file or browse the shared folder (never
 * above it, never the trash), preview, download within the link's limits, or, through a drop
 * link, only upload. A revoked link, a trashed item and a wrong token all answer "not found".
 */
export class SharedAccessService {
  private readonly unlockKey: Uint8Array;

  constructor(
    private readonly deps: {
      uow: UnitOfWork;
      links: ShareLinkRepository;
      throttle: LoginThrottleRepository;
      media: MediaService;
      zips: ZipService;
      uploads: UploadService;
      tus: TusUploadService;
      store: EncryptedStore;
      clock: Clock;
      secretKey: string;
    },
  ) {
    this.unlockKey = new TextEncoder().encode(`${deps.secretKey}:share-link-unlock`);
    // A resumable upload through a drop link is recorded like a direct one when it completes, and
    // gives its place in the link's allowance back if it is cancelled or expires.
    deps.tus.observe({
      finished: async (upload, file) => {
        await deps.links.insertDropOrigin({
          fileId: file.id,
          ownerId: file.ownerId,
          linkId: upload.dropLinkId!,
          uploaderName: upload.uploaderName,
          uploadedAt: deps.clock.now(),
        });
      },
      abandoned: (upload) => deps.links.releaseDropSlot(upload.dropLinkId!),
    });
  }

  /** The link and its item, live. `access` is the visitor's unlock token, if any. */
  async open(token: string, access: string | undefined): Promise<SharedLink> {
    const link = await this.deps.links.findByToken(token);
    // A disabled or deleted account's links answer as if they did not exist.
    if (!link || !(await new AccountRepository(this.deps.uow.repos.db).isActive(link.ownerId))) throw gone();
    const now = this.deps.clock.now();
    if (link.expiresAt !== null && link.expiresAt <= now) throw new DomainError('LINK_EXPIRED', 'This link has expired');
    const { files, folders } = this.deps.uow.repos;
    const shared: SharedLink = { link, unlocked: await this.isUnlocked(link, access) };
    if (link.itemType === 'file') {
      const file = await files.findOwned(link.ownerId, link.itemId);
      if (!file || file.trashedAt !== null) throw gone();
      shared.file = file;
    } else {
      const folder = await folders.findOwned(link.ownerId, link.itemId);
      if (!folder || folder.trashedAt !== null) throw gone();
      shared.folder = folder;
    }
    if (shared.unlocked) await this.deps.links.touch(link.id, now);
    return shared;
  }

  /** Like `open`, and refuses a visitor who has not given the link's password. */
  async enter(token: string, access: string | undefined): Promise<SharedLink> {
    const shared = await this.open(token, access);
    if (!shared.unlocked) throw new UnauthorizedError('PASSWORD_REQUIRED', 'This link is protected by a password');
    return shared;
  }

  /**
   * Checks the password and answers the unlock token to keep. Guesses are throttled per link and
   * address group (the hard limit), per address group across links, and per link from everywhere
   * at a much higher limit; attempts are counted before the check, so a burst gets no more tries
   * than a sequence. A visitor who unlocked the link before never comes here: the token it keeps
   * lets it in whatever the link's limits stand at.
   */
  async unlock(token: string, password: string, clientAddress: string): Promise<{ access: string; link: ShareLinkRow }> {
    const { link } = await this.open(token, undefined);
    if (link.passwordHash === null) return { access: await this.sign(link), link };
    const group = addressGroupOf(clientAddress);
    const pair: Limited = [`share-link:${link.id}|${group}`, GUESSES_PER_LINK_AND_ADDRESS];
    const keys: Limited[] = [pair, [`share-address:${group}`, GUESSES_PER_ADDRESS], [`share-link:${link.id}`, GUESSES_PER_LINK]];
    // Past two checks at once from one client (or a queue full of them), the attempt is refused
    // rather than queued, and counts toward the client's own limit.
    const place = admitHashing(group);
    if (!place || place.crowded) {
      place?.release();
      await this.deps.throttle.reserve(pair[0], this.deps.clock.now(), pair[1]);
      throw new TooManyError('RATE_LIMITED', 'Too many password checks at once; try again in a moment', 1);
    }
    let valid: boolean;
    try {
      const refusal = { code: 'RATE_LIMITED', message: 'Too many wrong passwords; try again later' } as const;
      await reserveAttempts(this.deps.throttle, keys, this.deps.clock.now(), refusal);
      valid = await verifyPassword(password, link.passwordHash);
    } finally {
      place.release();
    }
    if (!valid) throw new UnauthorizedError('WRONG_PASSWORD', 'Wrong password');
    for (const [key, policy] of keys) await this.deps.throttle.release(key, policy);
    return { access: await this.sign(link), link };
  }

  /** One folder of a shared folder: its subfolders and a page of its files. */
  async list(
    shared: SharedLink,
    folderId: string | undefined,
    sort: 'alp_asc' | 'alp_desc' | 'date_asc' | 'date_desc',
    after?: string,
  ): Promise<SharedListing> {
    const root = this.viewableFolder(shared);
    const folder = folderId === undefined || folderId === root.id ? root : await this.folderWithin(shared, folderId);
    const { files, folders } = this.deps.uow.repos;
    const [subfolders, page] = await Promise.all([
      folders.list({ ownerId: root.ownerId, parentId: folder.id, trashMode: false, sort, limit: FOLDERS_PER_LISTING }),
      files.list({
        ownerId: root.ownerId,
        folderId: folder.id,
        trashMode: false,
        sort,
        limit: FILES_PER_PAGE + 1,
        cursor: parseCursor(after),
      }),
    ]);
    const more = page.length > FILES_PER_PAGE;
    const shown = page.slice(0, FILES_PER_PAGE);
    const last = shown.at(-1);
    return {
      folder,
      path: await this.pathTo(root, folder),
      folders: subfolders,
      files: shown,
      next: more && last ? Buffer.from(JSON.stringify({ u: last.uploadedAt, n: last.nameKey, i: last.id })).toString('base64url') : null,
    };
  }

  /** A file the link shows: the shared file itself, or one inside the shared folder. */
  async file(shared: SharedLink, fileId: string): Promise<FileRow> {
    if (shared.link.kind !== 'view') throw fileGone();
    if (shared.file) {
      if (shared.file.id !== fileId) throw fileGone();
      return shared.file;
    }
    const root = this.viewableFolder(shared);
    const file = await this.deps.uow.repos.files.findOwned(root.ownerId, fileId);
    if (!file || file.trashedAt !== null || file.folderId === null) throw fileGone();
    if (file.folderId !== root.id && !(await this.deps.uow.repos.folders.isWithin(root.ownerId, file.folderId, root.id))) throw fileGone();
    return file;
  }

  async thumbnail(shared: SharedLink, fileId: string): Promise<StoredAsset> {
    const file = await this.file(shared, fileId);
    if (!file.thumbnailId) throw fileGone();
    return this.deps.media.thumbnail(file.ownerId, file.thumbnailId);
  }

  /** What the preview shows: the image as a browser can draw it, or the video. Never counts as a download. */
  async preview(shared: SharedLink, fileId: string): Promise<StoredAsset> {
    const file = await this.file(shared, fileId);
    if (file.mediaKind === 'video') return this.deps.media.video(file.ownerId, file.id);
    if (file.mediaKind === 'photo' || isBrowserImage(file.contentType)) return this.deps.media.fullImage(file.ownerId, file.id);
    throw new NotFoundError('FILE_NOT_FOUND', 'This file has no preview');
  }

  /** A file's bytes as a download; `consume` (not a HEAD) takes one of the link's downloads. */
  async download(shared: SharedLink, fileId: string, consume: boolean): Promise<StoredAsset> {
    const file = await this.file(shared, fileId);
    await this.takeDownload(shared, consume);
    return fileAsset(file, this.deps.store);
  }

  /** The shared folder, or a folder inside it, as one zip; one download of the link. */
  async zip(shared: SharedLink, folderId: string | undefined, consume: boolean): Promise<ZipDownload> {
    const root = this.viewableFolder(shared);
    const folder = folderId === undefined || folderId === root.id ? root : await this.folderWithin(shared, folderId);
    await this.takeDownload(shared, consume);
    return this.deps.zips.open(root.ownerId, [folder.id], []);
  }

  /**
   * A visitor's file into a drop link's folder: named as sent, made unique in that folder, within
   * the link's size and count limits. The count is taken first and given back if the upload fails.
   */
  async drop(shared: SharedLink, input: { filename: string; body: Readable; uploaderName: string | null }): Promise<FileRow> {
    const { link, folder } = shared;
    if (link.kind !== 'drop' || !folder) throw gone();
    const now = this.deps.clock.now();
    if (!(await this.deps.links.takeDropSlot(link.id, now))) throw new DomainError('LINK_EXPIRED', 'This link accepts no more files');
    try {
      const filename = await this.uniqueName(folder, sanitizeName(input.filename));
      const file = await this.deps.uploads.storeFile({
        ownerId: link.ownerId,
        filename,
        folderId: folder.id,
        body: input.body,
        maxBytes: link.maxFileBytes ?? undefined,
      });
      await this.deps.links.insertDropOrigin({
        fileId: file.id,
        ownerId: link.ownerId,
        linkId: link.id,
        uploaderName: input.uploaderName,
        uploadedAt: now,
      });
      return file;
    } catch (err) {
      await this.deps.links.releaseDropSlot(link.id);
      throw err;
    }
  }

  /**
   * A resumable (tus) upload into a drop link's folder: the same name, size and count rules as
   * `drop`; the allowance is taken now and given back if the upload never completes.
   */
  async createDropUpload(
    shared: SharedLink,
    input: { length: number; filename: string; uploaderName: string | null; metadata: string },
  ): Promise<TusUploadRow> {
    const { link, folder } = shared;
    if (link.kind !== 'drop' || !folder) throw gone();
    if (link.maxFileBytes !== null && input.length > link.maxFileBytes)
      throw new DomainError('PAYLOAD_TOO_LARGE', `This link accepts files of at most ${link.maxFileBytes} bytes`);
    if (!(await this.deps.links.takeDropSlot(link.id, this.deps.clock.now())))
      throw new DomainError('LINK_EXPIRED', 'This link accepts no more files');
    try {
      return await this.deps.tus.create(link.ownerId, {
        length: input.length,
        filename: await this.uniqueName(folder, sanitizeName(input.filename)),
        parent: folder.id,
        metadata: input.metadata,
        drop: { linkId: link.id, uploaderName: input.uploaderName },
      });
    } catch (err) {
      await this.deps.links.releaseDropSlot(link.id);
      throw err;
    }
  }

  private async takeDownload(shared: SharedLink, consume: boolean): Promise<void> {
    const { link } = shared;
    if (link.allowDownload !== 1) throw new ForbiddenError('FORBIDDEN', 'This link allows viewing only');
    if (!isLive(link, this.deps.clock.now())) throw new DomainError('LINK_EXPIRED', 'This link has no downloads left');
    if (consume && !(await this.deps.links.takeDownload(link.id, this.deps.clock.now())))
      throw new DomainError('LINK_EXPIRED', 'This link has no downloads left');
  }

  private viewableFolder(shared: SharedLink): FolderRow {
    if (shared.link.kind !== 'view' || !shared.folder) throw new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
    return shared.folder;
  }

  private async folderWithin(shared: SharedLink, folderId: string): Promise<FolderRow> {
    const root = this.viewableFolder(shared);
    const folder = await this.deps.uow.repos.folders.findOwned(root.ownerId, folderId);
    if (!folder || folder.trashedAt !== null || !(await this.deps.uow.repos.folders.isWithin(root.ownerId, folder.id, root.id)))
      throw new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
    return folder;
  }

  /** The folders from the shared one down to `folder`; nothing above the shared folder. */
  private async pathTo(root: FolderRow, folder: FolderRow): Promise<FolderRow[]> {
    const path = [folder];
    let current = folder;
    while (current.id !== root.id && current.parentId !== null && path.length < MAX_DEPTH) {
      const parent = await this.deps.uow.repos.folders.findOwned(root.ownerId, current.parentId);
      if (!parent) break;
      path.unshift(parent);
      current = parent;
    }
    return path;
  }

  private async uniqueName(folder: FolderRow, filename: string): Promise<string> {
    const dot = filename.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
    for (let n = 0; n < 1000; n++) {
      const candidate = n === 0 ? filename : `${stem} (${n})${ext}`;
      if (!(await this.deps.uow.repos.files.hasActiveName(folder.ownerId, folder.id, nameKeyOf(candidate)))) return candidate;
    }
    return `${stem} (${Date.now()})${ext}`;
  }

  private async isUnlocked(link: ShareLinkRow, access: string | undefined): Promise<boolean> {
    if (link.passwordHash === null) return true;
    if (!access) return false;
    try {
      const { payload } = await jwtVerify(access, this.unlockKey, {
        algorithms: ['HS256'],
        audience: 'share-link',
        currentDate: new Date(this.deps.clock.now()),
      });
      return payload.sub === link.id && payload.pw === passwordStamp(link.passwordHash);
    } catch {
      return false;
    }
  }

  private sign(link: ShareLinkRow): Promise<string> {
    const now = this.deps.clock.now();
    return new SignJWT({ pw: link.passwordHash === null ? '' : passwordStamp(link.passwordHash) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(link.id)
      .setAudience('share-link')
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor((now + UNLOCK_TTL_MS) / 1000))
      .sign(this.unlockKey);
  }
}

/** A changed password ends every unlock given under the old one. */
function passwordStamp(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16);
}

function parseCursor(after: string | undefined): FileCursor | undefined {
  if (!after) return undefined;
  try {
    const { u, n, i } = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as { u: unknown; n: unknown; i: unknown };
    if (typeof u !== 'number' || typeof n !== 'string' || typeof i !== 'string') throw new Error('shape');
    return { uploadedAt: u, nameKey: n, id: i };
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'Invalid page cursor');
  }
}
