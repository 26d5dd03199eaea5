import type { FaceDto, PeopleSettingsDto, PersonDto, PersonUpdateRequest } from '@nimbus/common';
import type { FileRepository, ShownFile } from '../db/repositories/file.repository.js';
import { ConflictError, InvalidError, NotFoundError } from '../domain/errors.js';
import { JOB } from '../jobs/job-names.js';
import type { JobQueue } from '../jobs/queue.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Clock } from '../services/clock.js';
import { cropContext } from './face-scan.service.js';
import { DETECTOR } from './face-detector.js';
import type { FaceRow, FilesCursor, PeopleRepository, PersonRow, PersonSummary } from './people.repository.js';

function personNotFound(): NotFoundError {
  return new NotFoundError('PERSON_NOT_FOUND', 'Person not found');
}

function faceNotFound(): NotFoundError {
  return new NotFoundError('FACE_NOT_FOUND', 'Face not found');
}

export function presentPerson(p: PersonSummary): PersonDto {
  return {
    id: p.id,
    name: p.name,
    hidden: p.hidden !== 0,
    faceCount: p.faceCount,
    photoCount: p.photoCount,
    coverFaceId: p.shownCoverId,
    updatedAt: p.updatedAt,
  };
}

export function presentFace(f: FaceRow): FaceDto {
  return {
    id: f.id,
    fileId: f.fileId,
    personId: f.personId,
    personName: f.personName,
    box: { x: f.boxX, y: f.boxY, width: f.boxW, height: f.boxH },
    score: f.score,
  };
}

/** The page cursor: the last file's upload time and id, opaque to clients. */
export function encodeCursor(c: FilesCursor): string {
  return Buffer.from(`${c.uploadedAt}:${c.id}`).toString('base64url');
}

export function decodeCursor(value: string): FilesCursor {
  const m = /^(\d{1,15}):([\w-]{1,64})$/.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (!m) throw new InvalidError('The cursor is not one this list gave');
  return { uploadedAt: Number(m[1]), id: m[2]! };
}

/**
 * People in one account's photos, for that account alone: every id of another account's person,
 * face or file answers not found. With people off, lists are empty and changes are refused.
 */
export class PeopleService {
  constructor(
    private readonly deps: {
      repo: PeopleRepository;
      files: FileRepository;
      queue: JobQueue;
      crops: SecretBox;
      clock: Clock;
      wake: () => void;
    },
  ) {}

  async settings(ownerId: string): Promise<PeopleSettingsDto> {
    const enabled = await this.deps.repo.isEnabled(ownerId);
    if (!enabled) return { enabled, scannedPhotos: 0, pendingPhotos: 0 };
    const counts = await this.deps.repo.scanCounts(ownerId, DETECTOR);
    return { enabled, scannedPhotos: counts.scanned, pendingPhotos: counts.pending };
  }

  async setEnabled(ownerId: string, enabled: boolean): Promise<PeopleSettingsDto> {
    await this.deps.repo.setEnabled(ownerId, enabled);
    if (enabled) {
      await this.deps.queue.enqueue(JOB.peopleBackfill, { ownerId }, { dedupeKey: `${JOB.peopleBackfill}:${ownerId}:0`, lane: ownerId });
      this.deps.wake();
    }
    return this.settings(ownerId);
  }

  async list(ownerId: string, hidden: boolean): Promise<PersonDto[]> {
    if (!(await this.deps.repo.isEnabled(ownerId))) return [];
    return (await this.deps.repo.people(ownerId, { hidden })).map(presentPerson);
  }

  async get(ownerId: string, personId: string): Promise<PersonDto> {
    const [found] = await this.deps.repo.people(ownerId, { personId });
    if (found) return presentPerson(found);
    // Someone whose photos are all in the trash: still theirs to name, with nothing to show.
    const person = await this.deps.repo.findPerson(ownerId, personId);
    if (!person) throw personNotFound();
    return presentPerson({ ...person, faceCount: 0, photoCount: 0, shownCoverId: null });
  }

  async update(ownerId: string, personId: string, change: PersonUpdateRequest): Promise<PersonDto> {
    await this.person(ownerId, personId);
    await this.deps.repo.updatePerson(personId, change, this.deps.clock.now());
    return this.get(ownerId, personId);
  }

  async merge(ownerId: string, personId: string, otherId: string): Promise<PersonDto> {
    if (personId === otherId) throw new InvalidError('A person cannot be merged into themselves');
    const into = await this.person(ownerId, personId);
    const other = await this.person(ownerId, otherId);
    await this.deps.repo.merge(ownerId, into, other, this.deps.clock.now());
    return this.get(ownerId, personId);
  }

  async files(
    ownerId: string,
    personId: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<{ rows: ShownFile[]; nextCursor: string | null }> {
    const after = cursor === undefined ? null : decodeCursor(cursor);
    await this.person(ownerId, personId, { readOnly: true });
    const rows = await this.deps.repo.personFiles(ownerId, personId, limit, after);
    const last = rows.at(-1);
    return { rows, nextCursor: rows.length === limit && last ? encodeCursor({ uploadedAt: last.uploadedAt, id: last.id }) : null };
  }

  async faces(ownerId: string, personId: string): Promise<FaceDto[]> {
    await this.person(ownerId, personId, { readOnly: true });
    return (await this.deps.repo.personFaces(ownerId, personId)).map(presentFace);
  }

  async removeFace(ownerId: string, personId: string, faceId: string): Promise<void> {
    await this.person(ownerId, personId);
    if (!(await this.deps.repo.removeFace(ownerId, personId, faceId, this.deps.clock.now()))) throw faceNotFound();
  }

  /** The face's JPEG crop. */
  async crop(ownerId: string, faceId: string): Promise<Buffer> {
    const row = await this.deps.repo.findCrop(ownerId, faceId);
    const crop = row ? this.deps.crops.openBytes(row.crop, cropContext(faceId)) : null;
    if (!crop) throw faceNotFound();
    return crop;
  }

  async fileFaces(ownerId: string, fileId: string): Promise<FaceDto[]> {
    const file = await this.deps.files.findOwned(ownerId, fileId);
    if (!file) throw new NotFoundError('FILE_NOT_FOUND', 'File not found');
    return (await this.deps.repo.fileFaces(ownerId, fileId)).map(presentFace);
  }

  /** The caller's person; a change while people are off is refused. */
  private async person(ownerId: string, personId: string, options: { readOnly?: boolean } = {}): Promise<PersonRow> {
    if (!options.readOnly && !(await this.deps.repo.isEnabled(ownerId)))
      throw new ConflictError('PEOPLE_OFF', 'People in photos are turned off');
    const person = await this.deps.repo.findPerson(ownerId, personId);
    if (!person) throw personNotFound();
    return person;
  }
}
