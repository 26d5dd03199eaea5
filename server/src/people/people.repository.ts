import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { ShownFile } from '../db/repositories/file.repository.js';
import type { FaceScanStatus, FaceTable, PersonTable } from '../db/schema.js';

export type PersonRow = PersonTable;

/** A face as the API shows it (no descriptor, no crop). */
export interface FaceRow {
  id: string;
  fileId: string;
  personId: string | null;
  personName: string | null;
  boxX: number;
  boxY: number;
  boxW: number;
  boxH: number;
  score: number;
}

/** A person with what the People page counts: faces and photos on files outside the trash. */
export interface PersonSummary extends PersonRow {
  faceCount: number;
  photoCount: number;
  /** The chosen cover when it still shows the person, else their best face. */
  shownCoverId: string | null;
}

/** A face the clustering compares with: whose it is, and its descriptor. */
export interface ClusterFace {
  id: string;
  fileId: string;
  personId: string | null;
  rejectedPersonId: string | null;
  descriptor: Float32Array;
}

export interface ScanRecord {
  fileId: string;
  ownerId: string;
  /** The content that was read: nothing is recorded when the file holds other content now. */
  storageKey: string;
  status: FaceScanStatus;
  error: string | null;
  detector: string;
  faces: Omit<FaceTable, 'ownerId' | 'fileId' | 'personId' | 'rejectedPersonId'>[];
  now: number;
}

export interface FilesCursor {
  uploadedAt: number;
  id: string;
}

const SHOWN_FILE_COLUMNS = [
  'file.id',
  'file.ownerId',
  'file.folderId',
  'file.filename',
  'file.size',
  'file.contentType',
  'file.mediaKind',
  'file.uploadedAt',
  'file.thumbnailId',
  'file.linkType',
  'file.linkToken',
  'file.trashedAt',
] as const;

/** float32 components, copied out of the row's bytes (which need not be aligned for a Float32Array). */
export function descriptorOf(bytes: Uint8Array): Float32Array {
  return new Float32Array(new Uint8Array(bytes).buffer);
}

export function descriptorBytes(descriptor: Float32Array): Buffer {
  return Buffer.from(descriptor.buffer, descriptor.byteOffset, descriptor.byteLength);
}

/** New content: the file's faces and scan go (in the caller's transaction), so its next scan starts afresh. */
export async function forgetFaces(db: Db, fileId: string): Promise<void> {
  await db.deleteFrom('face').where('fileId', '=', fileId).execute();
  await db.deleteFrom('faceScan').where('fileId', '=', fileId).execute();
}

/** Faces, people and face scans of each account (see migration 2026_12_10_1710_people). */
export class PeopleRepository {
  constructor(private readonly db: Db) {}

  async isEnabled(ownerId: string, db: Db = this.db): Promise<boolean> {
    const row = await db.selectFrom('account').select('peopleEnabled').where('id', '=', ownerId).executeTakeFirst();
    return row !== undefined && row.peopleEnabled !== 0;
  }

  /** Turns people on or off; off deletes every face, person and scan of the account in the same transaction. */
  async setEnabled(ownerId: string, enabled: boolean): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('account')
        .set({ peopleEnabled: enabled ? 1 : 0 })
        .where('id', '=', ownerId)
        .execute();
      if (enabled) return;
      await trx.deleteFrom('face').where('ownerId', '=', ownerId).execute();
      await trx.deleteFrom('person').where('ownerId', '=', ownerId).execute();
      await trx.deleteFrom('faceScan').where('ownerId', '=', ownerId).execute();
    });
  }

  findScan(fileId: string): Promise<{ status: FaceScanStatus; detector: string } | undefined> {
    return this.db.selectFrom('faceScan').select(['status', 'detector']).where('fileId', '=', fileId).executeTakeFirst();
  }

  /**
   * The faces found replace the file's earlier ones, with the scan, in one transaction; only while
   * the file still holds the content read and its account has people on. False when not recorded.
   */
  async recordScan(scan: ScanRecord): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const file = await trx.selectFrom('file').select('storageKey').where('id', '=', scan.fileId).executeTakeFirst();
      if (file?.storageKey !== scan.storageKey || !(await this.isEnabled(scan.ownerId, trx))) return false;
      await trx.deleteFrom('face').where('fileId', '=', scan.fileId).execute();
      for (const face of scan.faces) {
        await trx
          .insertInto('face')
          .values({ ...face, ownerId: scan.ownerId, fileId: scan.fileId, personId: null, rejectedPersonId: null })
          .execute();
      }
      const row = {
        status: scan.status,
        faceCount: scan.faces.length,
        detector: scan.detector,
        error: scan.error === null ? null : scan.error.slice(0, 1000),
        scannedAt: scan.now,
      };
      await trx
        .insertInto('faceScan')
        .values({ fileId: scan.fileId, ownerId: scan.ownerId, ...row })
        .onConflict((oc) => oc.column('fileId').doUpdateSet(row))
        .execute();
      return true;
    });
  }

  /** Every face of the account the clustering compares with: those in a person, and these new ones. */
  async clusterFaces(ownerId: string): Promise<ClusterFace[]> {
    const rows = await this.db
      .selectFrom('face')
      .select(['id', 'fileId', 'personId', 'rejectedPersonId', 'descriptor'])
      .where('ownerId', '=', ownerId)
      .where('personId', 'is not', null)
      .execute();
    return rows.map((r) => ({ ...r, descriptor: descriptorOf(r.descriptor) }));
  }

  async unassignedFaces(fileId: string): Promise<ClusterFace[]> {
    const rows = await this.db
      .selectFrom('face')
      .select(['id', 'fileId', 'personId', 'rejectedPersonId', 'descriptor'])
      .where('fileId', '=', fileId)
      .where('personId', 'is', null)
      .where('rejectedPersonId', 'is', null)
      .orderBy('score', 'desc')
      .execute();
    return rows.map((r) => ({ ...r, descriptor: descriptorOf(r.descriptor) }));
  }

  async createPerson(ownerId: string, id: string, now: number): Promise<void> {
    await this.db
      .insertInto('person')
      .values({ id, ownerId, name: null, hidden: 0, coverFaceId: null, createdAt: now, updatedAt: now })
      .execute();
  }

  /** Puts a face with a person, unless the face is gone or was put elsewhere meanwhile. */
  async assign(faceId: string, personId: string): Promise<void> {
    await this.db.updateTable('face').set({ personId }).where('id', '=', faceId).where('personId', 'is', null).execute();
  }

  /** People of the account (or of every account) left without any face disappear. */
  async pruneEmpty(ownerId: string | null, db: Db = this.db): Promise<void> {
    let query = db
      .deleteFrom('person')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('face').select('face.id').whereRef('face.personId', '=', 'person.id'))),
      );
    if (ownerId !== null) query = query.where('ownerId', '=', ownerId);
    await query.execute();
  }

  /**
   * Photos (outside the trash) of accounts with people on that were never scanned by this
   * detector and have no scan pending; newest first.
   */
  async unscanned(detector: string, limit: number, ownerId?: string): Promise<{ id: string; ownerId: string }[]> {
    let query = this.db
      .selectFrom('file')
      .innerJoin('account', 'account.id', 'file.ownerId')
      .leftJoin('faceScan', 'faceScan.fileId', 'file.id')
      .select(['file.id', 'file.ownerId'])
      .where('file.mediaKind', '=', 'photo')
      .where('file.trashedAt', 'is', null)
      .where('account.peopleEnabled', '=', 1)
      .where((eb) => eb.or([eb('faceScan.fileId', 'is', null), eb('faceScan.detector', '!=', detector)]))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('job')
              .select('job.id')
              .where('job.dedupeKey', '=', sql<string>`${'people.scan:'} || ${sql.ref('file.id')}`),
          ),
        ),
      );
    if (ownerId) query = query.where('file.ownerId', '=', ownerId);
    return query.orderBy('file.createdAt', 'desc').orderBy('file.id', 'desc').limit(limit).execute();
  }

  /** Photos outside the trash whose faces were looked for by this detector, and those still waiting. */
  async scanCounts(ownerId: string, detector: string): Promise<{ scanned: number; pending: number }> {
    const row = await this.db
      .selectFrom('file')
      .leftJoin('faceScan', (join) => join.onRef('faceScan.fileId', '=', 'file.id').on('faceScan.detector', '=', detector))
      .select((eb) => [eb.fn.countAll<number | string>().as('photos'), eb.fn.count<number | string>('faceScan.fileId').as('scanned')])
      .where('file.ownerId', '=', ownerId)
      .where('file.mediaKind', '=', 'photo')
      .where('file.trashedAt', 'is', null)
      .executeTakeFirstOrThrow();
    const scanned = Number(row.scanned);
    return { scanned, pending: Number(row.photos) - scanned };
  }

  /** The account's people with faces on photos outside the trash, most photos first. */
  async people(ownerId: string, filter: { hidden?: boolean; personId?: string } = {}): Promise<PersonSummary[]> {
    let query = this.db
      .selectFrom('person')
      .innerJoin('face', 'face.personId', 'person.id')
      .innerJoin('file', 'file.id', 'face.fileId')
      .selectAll('person')
      .select((eb) => [
        eb.fn.count<number | string>('face.id').as('faceCount'),
        eb.fn.count<number | string>('face.fileId').distinct().as('photoCount'),
      ])
      .where('person.ownerId', '=', ownerId)
      .where('file.trashedAt', 'is', null);
    if (filter.hidden !== undefined) query = query.where('person.hidden', '=', filter.hidden ? 1 : 0);
    if (filter.personId !== undefined) query = query.where('person.id', '=', filter.personId);
    const rows = await query
      .groupBy([
        'person.id',
        'person.ownerId',
        'person.name',
        'person.hidden',
        'person.coverFaceId',
        'person.createdAt',
        'person.updatedAt',
      ])
      .orderBy('photoCount', 'desc')
      .orderBy('person.updatedAt', 'desc')
      .orderBy('person.id')
      .execute();
    if (rows.length === 0) return [];
    const covers = await this.covers(ownerId, filter.personId);
    return rows.map((r) => {
      const shown = covers.get(r.id);
      const chosen = r.coverFaceId !== null && shown?.all.has(r.coverFaceId) ? r.coverFaceId : (shown?.best ?? null);
      return { ...r, faceCount: Number(r.faceCount), photoCount: Number(r.photoCount), shownCoverId: chosen };
    });
  }

  /** Each person's faces on live photos, and their best (the detector's surest). */
  private async covers(ownerId: string, personId?: string): Promise<Map<string, { best: string; all: Set<string> }>> {
    let query = this.db
      .selectFrom('face')
      .innerJoin('file', 'file.id', 'face.fileId')
      .select(['face.id', 'face.personId'])
      .where('face.ownerId', '=', ownerId)
      .where('face.personId', 'is not', null)
      .where('file.trashedAt', 'is', null);
    if (personId !== undefined) query = query.where('face.personId', '=', personId);
    const covers = new Map<string, { best: string; all: Set<string> }>();
    for (const f of await query.orderBy('face.score', 'desc').orderBy('face.id').execute()) {
      const entry = covers.get(f.personId!);
      if (entry) entry.all.add(f.id);
      else covers.set(f.personId!, { best: f.id, all: new Set([f.id]) });
    }
    return covers;
  }

  findPerson(ownerId: string, personId: string): Promise<PersonRow | undefined> {
    return this.db.selectFrom('person').selectAll().where('id', '=', personId).where('ownerId', '=', ownerId).executeTakeFirst();
  }

  async updatePerson(personId: string, change: { name?: string | null; hidden?: boolean }, now: number): Promise<void> {
    await this.db
      .updateTable('person')
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.hidden !== undefined ? { hidden: change.hidden ? 1 : 0 } : {}),
        updatedAt: now,
      })
      .where('id', '=', personId)
      .execute();
  }

  /** `other`'s faces move to `into` (which takes `other`'s name if it has none); `other` is deleted. */
  async merge(ownerId: string, into: PersonRow, other: PersonRow, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('face').set({ personId: into.id }).where('personId', '=', other.id).where('ownerId', '=', ownerId).execute();
      // A face once removed from either stays away from the merged person.
      await trx
        .updateTable('face')
        .set({ rejectedPersonId: into.id })
        .where('rejectedPersonId', '=', other.id)
        .where('ownerId', '=', ownerId)
        .execute();
      await trx
        .updateTable('person')
        .set({ name: into.name ?? other.name, updatedAt: now })
        .where('id', '=', into.id)
        .execute();
      await trx.deleteFrom('person').where('id', '=', other.id).execute();
    });
  }

  /** The face leaves the person for good (never put back with them); a person left without faces goes. */
  async removeFace(ownerId: string, personId: string, faceId: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('face')
        .set({ personId: null, rejectedPersonId: personId })
        .where('id', '=', faceId)
        .where('personId', '=', personId)
        .where('ownerId', '=', ownerId)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return false;
      await trx.updateTable('person').set({ updatedAt: now }).where('id', '=', personId).execute();
      await this.pruneEmpty(ownerId, trx);
      return true;
    });
  }

  private faceQuery(ownerId: string) {
    return this.db
      .selectFrom('face')
      .leftJoin('person', 'person.id', 'face.personId')
      .select([
        'face.id',
        'face.fileId',
        'face.personId',
        'person.name as personName',
        'face.boxX',
        'face.boxY',
        'face.boxW',
        'face.boxH',
        'face.score',
      ])
      .where('face.ownerId', '=', ownerId);
  }

  /** The person's faces on photos outside the trash, newest photo first. */
  personFaces(ownerId: string, personId: string): Promise<FaceRow[]> {
    return this.faceQuery(ownerId)
      .innerJoin('file', 'file.id', 'face.fileId')
      .where('face.personId', '=', personId)
      .where('file.trashedAt', 'is', null)
      .orderBy('file.uploadedAt', 'desc')
      .orderBy('face.id')
      .execute();
  }

  fileFaces(ownerId: string, fileId: string): Promise<FaceRow[]> {
    return this.faceQuery(ownerId).where('face.fileId', '=', fileId).orderBy('face.boxX').orderBy('face.id').execute();
  }

  findCrop(ownerId: string, faceId: string): Promise<{ crop: Buffer } | undefined> {
    return this.db.selectFrom('face').select('crop').where('id', '=', faceId).where('ownerId', '=', ownerId).executeTakeFirst();
  }

  /** The person's photos outside the trash, newest first, a page after `cursor`. */
  personFiles(ownerId: string, personId: string, limit: number, cursor: FilesCursor | null): Promise<ShownFile[]> {
    let query = this.db
      .selectFrom('file')
      .select(SHOWN_FILE_COLUMNS)
      .where('file.ownerId', '=', ownerId)
      .where('file.trashedAt', 'is', null)
      .where('file.id', 'in', (eb) => eb.selectFrom('face').select('face.fileId').where('face.personId', '=', personId));
    if (cursor) query = query.where((eb) => eb(eb.refTuple('file.uploadedAt', 'file.id'), '<', eb.tuple(cursor.uploadedAt, cursor.id)));
    return query.orderBy('file.uploadedAt', 'desc').orderBy('file.id', 'desc').limit(limit).execute();
  }

  /** Named, visible people of an account with people on. */
  async namedPeople(ownerId: string): Promise<{ id: string; name: string }[]> {
    const rows = await this.db
      .selectFrom('person')
      .innerJoin('account', 'account.id', 'person.ownerId')
      .select(['person.id', 'person.name'])
      .where('person.ownerId', '=', ownerId)
      .where('account.peopleEnabled', '=', 1)
      .where('person.hidden', '=', 0)
      .where('person.name', 'is not', null)
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name! }));
  }

  /** Live photos (outside the trash) showing someone of each group (a group: people of one name); newest first. */
  async filesShowingAll(ownerId: string, groups: string[][], limit: number): Promise<string[]> {
    let query = this.db.selectFrom('file').select('file.id').where('file.ownerId', '=', ownerId).where('file.trashedAt', 'is', null);
    for (const group of groups) {
      query = query.where('file.id', 'in', (eb) => eb.selectFrom('face').select('face.fileId').where('face.personId', 'in', group));
    }
    const rows = await query.orderBy('file.uploadedAt', 'desc').orderBy('file.id', 'desc').limit(limit).execute();
    return rows.map((r) => r.id);
  }
}
