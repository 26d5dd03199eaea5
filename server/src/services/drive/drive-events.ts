import type { Db } from '../../db/database.js';
import type { MediaKind } from '../../db/schema.js';
import { JOB } from '../../jobs/job-names.js';
import { isAudio } from '../../media/audio-tags.js';
import { isPdf } from '../../media/pdf-thumbnailer.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { IndexRequests } from '../../search/index-requests.js';
import { forgetFaces } from '../../people/people.repository.js';

interface FileRef {
  id: string;
  ownerId: string;
  folderId: string | null;
  mediaKind: MediaKind | null;
  contentType: string;
}

interface FolderRef {
  id: string;
  ownerId: string;
  name: string;
}

/**
 * The background work a drive change needs (thumbnails, Live Photo pairing, a video's playability
 * probe, faces, AI-search indexing), enqueued with the transaction `db` that commits the change: a
 * committed change always has its jobs. `committed()` wakes the worker once the transaction is over.
 */
export class DriveEvents {
  constructor(
    private readonly queue: JobQueue,
    private readonly index: IndexRequests,
    private readonly wake: () => void = () => {},
    /** Whether stored videos are probed for a playable rendition (`VIDEO_TRANSCODE`). */
    private readonly options: { videoRenditions?: boolean } = {},
  ) {}

  private async motionJob(db: Db, file: FileRef): Promise<void> {
    await this.queue.enqueue(JOB.fileMotion, { fileId: file.id }, { dedupeKey: `${JOB.fileMotion}:${file.id}`, lane: file.ownerId }, db);
  }

  /** Enqueues the probe of a video's playability (see RenditionService). */
  async videoStored(db: Db, file: { id: string; ownerId: string }): Promise<void> {
    await this.queue.enqueue(JOB.videoProbe, { fileId: file.id }, { dedupeKey: `${JOB.videoProbe}:${file.id}`, lane: file.ownerId }, db);
  }

  async fileStored(db: Db, file: FileRef): Promise<void> {
    // PDFs and audio are no media kind of the gallery, yet their first page or cover is their thumbnail.
    if (file.mediaKind !== null || isPdf(file.contentType) || isAudio(file.contentType)) {
      await this.queue.enqueue(
        JOB.fileThumbnail,
        { fileId: file.id },
        { dedupeKey: `${JOB.fileThumbnail}:${file.id}`, lane: file.ownerId },
        db,
      );
    }
    // Live Photo identifiers and motion-photo clips (the job passes over other types at once).
    if (file.mediaKind !== null) await this.motionJob(db, file);
    if (this.options.videoRenditions && file.mediaKind === 'video') await this.videoStored(db, file);
    if (file.mediaKind === 'photo') await this.peopleJob(db, file);
    await this.index.fileChanged(file.id, db, file.ownerId);
  }

  /** New content: the faces of the old go now, and the photo is scanned again (the job passes over accounts with people off). */
  private async peopleJob(db: Db, file: FileRef): Promise<void> {
    await forgetFaces(db, file.id);
    await this.queue.enqueue(JOB.peopleScan, { fileId: file.id }, { dedupeKey: `${JOB.peopleScan}:${file.id}`, lane: file.ownerId }, db);
  }

  /** A rename, a move or a restore; the folder it left describes its contents, so it follows. */
  async fileChanged(db: Db, file: FileRef, previousFolderId: string | null): Promise<void> {
    await this.index.fileChanged(file.id, db, file.ownerId);
    // A still or MOV back from the trash may pair with its half that came meanwhile (the job reads nothing again).
    if (file.mediaKind !== null) await this.motionJob(db, file);
    if (previousFolderId !== file.folderId) await this.index.folderChanged(previousFolderId, false, db, file.ownerId);
  }

  /** `previous` is null for a new folder; a new name cascades to the files that mention it. */
  async folderChanged(db: Db, folder: FolderRef, previous: FolderRef | null): Promise<void> {
    await this.index.folderChanged(folder.id, previous !== null && previous.name !== folder.name, db, folder.ownerId);
  }

  /** Stored blobs no row needs any more: deleted by a durable job once this transaction commits. */
  async blobsReleased(db: Db, ownerId: string, keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 500) {
      await this.queue.enqueue(JOB.blobDelete, { keys: keys.slice(i, i + 500) }, { lane: ownerId }, db);
    }
  }

  committed(): void {
    this.wake();
  }
}
