import { z } from 'zod';
import type { FileDto } from './files.js';
import { id, parentRef } from './shared.js';

/**
 * File versions (`/file-service/versions/...`): when a file's content is replaced (a WebDAV PUT,
 * a tus upload with `replaces`, "Upload new version"), the old content is kept as a version.
 * Anyone who may read the file lists and downloads its versions; an editor restores one (the
 * current content becomes a version in turn); only the owner deletes one.
 */

/** Who stored a content: an account of the server (the owner or an editor), and the app password it came through. */
export interface ContentAuthorDto {
  /** Null for content stored before versions were kept, or by an account since deleted. */
  account: { id: string; email: string } | null;
  /** The app password's name (WebDAV, rclone…); null from the web app and the API. */
  via: string | null;
}

export interface FileVersionDto {
  id: string;
  size: number;
  sha256: string;
  contentType: string;
  /** When this content was stored: the version's time (ISO 8601). */
  createdAt: string;
  /** When newer content replaced it (ISO 8601). */
  replacedAt: string;
  author: ContentAuthorDto;
}

/** `GET /file-service/versions/:id`: the current content first, then the versions, newest first. */
export interface FileVersionListDto {
  current: { size: number; sha256: string; contentType: string; createdAt: string; author: ContentAuthorDto };
  versions: FileVersionDto[];
}

/** `POST /file-service/versions/:id/:versionId/restore` answers the file with its new current content. */
export type RestoreVersionResponse = FileDto;

/**
 * `POST /folder-service/restore-as-of`: every file under the folder (`/`: the whole drive) back to
 * its content at `at`; items trashed since then restored; files made since then moved to the trash.
 */
export const restoreAsOfRequest = z.object({
  id: parentRef,
  at: z.iso.datetime({ offset: true }),
});
export type RestoreAsOfRequest = z.infer<typeof restoreAsOfRequest>;

export interface RestoreAsOfResultDto {
  /** Files whose content went back to an earlier version. */
  revertedFiles: number;
  /** Files and folders trashed after `at`, restored. */
  restoredFromTrash: number;
  /** Files first stored after `at`, moved to the trash (nothing is deleted). */
  movedToTrash: number;
  /** Files changed after `at` whose earlier content is no longer kept (thinned by retention): left as they are. */
  notRecoverable: number;
}

export const versionParams = z.object({ id, versionId: id });
