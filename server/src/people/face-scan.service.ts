import type { FileMediaRepository } from '../db/repositories/file-media.repository.js';
import type { FileRepository, FileRow } from '../db/repositories/file.repository.js';
import type { FaceScanStatus } from '../db/schema.js';
import { MediaUnprocessableError } from '../media/errors.js';
import { isHeic, isRawImage, isThumbnailableImage } from '../media/formats.js';
import { newId } from '../security/ids.js';
import { SecretBox } from '../security/secret-box.js';
import type { Clock } from '../services/clock.js';
import type { EncryptedStore } from '../storage/blob-store.js';
import { WorkerTimeoutError } from '../workers/pool.js';
import type { FaceClustering } from './face-clustering.js';
import { DETECTOR, type FaceDetector, type FoundFace } from './face-detector.js';
import { descriptorBytes, type PeopleRepository } from './people.repository.js';

/** Photos larger than this are not read whole for faces (the thumbnailer's limit too). */
const MAX_IMAGE_BYTES = 128 * 1024 * 1024;

/** The crop's sealing context: a crop copied to another face's row does not open. */
export function cropContext(faceId: string): string {
  return `face-crop:${faceId}`;
}

export function faceCropBox(masterKey: Buffer): SecretBox {
  return new SecretBox(masterKey, 'face-crop');
}

/** HEIC and RAW photos are read through the preview the thumbnail job stores; that job has not run yet. */
export class PreviewPendingError extends Error {
  constructor() {
    super('The photo has no preview yet');
    this.name = 'PreviewPendingError';
  }
}

function isPictureFailure(err: unknown): boolean {
  if (err instanceof MediaUnprocessableError || err instanceof WorkerTimeoutError) return true;
  return (err as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

type Picture = { image: Buffer } | { skip: string };

/**
 * `people.scan` of one photo: its faces found, stored with the scan in one transaction, then put
 * with people. Safe to run twice; a photo already scanned by this detector is left alone. A photo
 * that cannot be read is recorded as failed, never retried; only storage or the database throw.
 */
export class FaceScanService {
  constructor(
    private readonly deps: {
      files: FileRepository;
      media: FileMediaRepository;
      people: PeopleRepository;
      store: EncryptedStore;
      detector: FaceDetector;
      clustering: FaceClustering;
      crops: SecretBox;
      clock: Clock;
    },
  ) {}

  async scan(fileId: string): Promise<FaceScanStatus | null> {
    // New content while the photo was read: its job was folded into this one, which reads it again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const outcome = await this.scanOnce(fileId);
      if (outcome !== 'replaced') return outcome;
    }
    return null;
  }

  private async scanOnce(fileId: string): Promise<FaceScanStatus | 'replaced' | null> {
    const { files, people } = this.deps;
    const file = await files.findById(fileId);
    if (!file || file.trashedAt !== null || file.mediaKind !== 'photo') return null;
    if (!(await people.isEnabled(file.ownerId))) return null;
    const previous = await people.findScan(fileId);
    if (previous?.detector === DETECTOR) return previous.status;

    const picture = await this.pictureOf(file);
    let outcome: { status: FaceScanStatus; error: string | null; faces: FoundFace[] };
    if ('skip' in picture) outcome = { status: 'skipped', error: picture.skip, faces: [] };
    else {
      try {
        outcome = { status: 'done', error: null, faces: await this.deps.detector.detect(picture.image) };
      } catch (err) {
        // A picture that cannot be decoded, runs past its deadline or exhausts its thread's heap
        // fails alone, once. Anything else (the networks not loading) is the server's, and retries.
        if (!isPictureFailure(err)) throw err;
        const reason = err instanceof Error ? err.message : String(err);
        outcome = { status: 'failed', error: reason, faces: [] };
      }
    }

    const now = this.deps.clock.now();
    const faces = outcome.faces.map((face) => {
      const id = newId();
      return {
        id,
        boxX: face.box.x,
        boxY: face.box.y,
        boxW: face.box.width,
        boxH: face.box.height,
        score: face.score,
        descriptor: descriptorBytes(face.descriptor),
        crop: this.deps.crops.sealBytes(face.crop, cropContext(id)),
        createdAt: now,
      };
    });
    const recorded = await people.recordScan({
      fileId,
      ownerId: file.ownerId,
      storageKey: file.storageKey,
      status: outcome.status,
      error: outcome.error,
      detector: DETECTOR,
      faces,
      now,
    });
    if (!recorded) return (await files.findById(fileId))?.storageKey === file.storageKey ? null : 'replaced';
    await this.deps.clustering.clusterFile(file.ownerId, fileId);
    // The scan replaced earlier faces of this photo: a person they alone made up is gone.
    await people.pruneEmpty(file.ownerId);
    return outcome.status;
  }

  /** The bytes to look at: the photo itself, or for HEIC and RAW the browser-ready preview made of it. */
  private async pictureOf(file: FileRow): Promise<Picture> {
    // The formats the thumbnailer reads, and no others (SVG is a program as much as a picture).
    if (!isThumbnailableImage(file.contentType)) return { skip: `No face scan for ${file.contentType}` };
    if (isHeic(file.contentType) || isRawImage(file.contentType)) {
      const media = await this.deps.media.find(file.id);
      if (!media) throw new PreviewPendingError();
      if (media.previewId === null || media.previewWrappedKey === null || media.previewSize === null)
        return { skip: 'The photo has no preview to look at' };
      return { image: await this.readWhole(media.previewId, media.previewWrappedKey, media.previewSize) };
    }
    if (file.size > MAX_IMAGE_BYTES) return { skip: 'The photo is too large' };
    return { image: await this.readWhole(file.storageKey, file.wrappedKey, file.size) };
  }

  private async readWhole(key: string, wrappedKey: string, size: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of await this.deps.store.read(key, wrappedKey, size)) parts.push(chunk as Buffer);
    return Buffer.concat(parts);
  }
}
