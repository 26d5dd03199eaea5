import type { Compilable, CompiledQuery } from 'kysely';
import { arrayRowReaderOf, type Db, type Dialect } from '../database.js';
import { bindArguments, QueryArgument } from '../queries/bound-arguments.js';
import { nameContains, ownerOfRareMatch, rareNameMatch } from '../queries/name-search.js';
import type { FileTable, LinkType, MediaKind } from '../schema.js';

export type FileRow = FileTable;

/**
 * What a listing shows of a file (see presentFile). Lists read these only: turning a page's keys
 * and hashes into JavaScript values cost more than the rest of its columns (160 µs against 98 for
 * a page of 50 on SQLite).
 */
const SHOWN_COLUMNS = [
  'id',
  'ownerId',
  'folderId',
  'filename',
  'size',
  'contentType',
  'mediaKind',
  'uploadedAt',
  'thumbnailId',
  'linkType',
  'linkToken',
  'trashedAt',
] as const satisfies readonly (keyof FileRow)[];
export type ShownFile = Pick<FileRow, (typeof SHOWN_COLUMNS)[number]>;

/** A row of SHOWN_COLUMNS read as an array, in their order. */
function shownFileOf(v: unknown[]): ShownFile {
  return {
    id: v[0] as string,
    ownerId: v[1] as string,
    folderId: v[2] as string | null,
    filename: v[3] as string,
    size: v[4] as number,
    contentType: v[5] as string,
    mediaKind: v[6] as MediaKind | null,
    uploadedAt: v[7] as number,
    thumbnailId: v[8] as string | null,
    linkType: v[9] as LinkType | null,
    linkToken: v[10] as string | null,
    trashedAt: v[11] as number | null,
  };
}
/**
 * What a page outside the trash reads of each file on SQLite: not the owner, folder and trash time,
 * which its query fixes for every row. Turning a page's values into JavaScript ones is most of what
 * reading it costs, and these were a quarter of them.
 */
const PAGE_COLUMNS = [
  'id',
  'filename',
  'size',
  'contentType',
  'mediaKind',
  'uploadedAt',
  'thumbnailId',
  'linkType',
  'linkToken',
] as const satisfies readonly (keyof FileRow)[];

/** A row of PAGE_COLUMNS read as an array, with what its query fixed (`folderId` read last when it was not). */
function pageFileOf(v: unknown[], ownerId: string, folderId: string | null): ShownFile {
  return {
    id: v[0] as string,
    ownerId,
    folderId: v.length > PAGE_COLUMNS.length ? (v[PAGE_COLUMNS.length] as string | null) : folderId,
    filename: v[1] as string,
    size: v[2] as number,
    contentType: v[3] as string,
    mediaKind: v[4] as MediaKind | null,
    uploadedAt: v[5] as number,
    thumbnailId: v[6] as string | null,
    linkType: v[7] as LinkType | null,
    linkToken: v[8] as string | null,
    trashedAt: null,
  };
}
export type FileSort = 'date_asc' | 'date_desc' | 'alp_asc' | 'alp_desc';

/**
 * Position after the last item of the previous page. Lists order by (date, name, id) or
 * (name, date, id); the cursor compares as a tuple with the leading parts it has, so the API's
 * cursor of the last file's date and name alone (`startAtDate`, `startAtName`) never skips files
 * that share a name or a date. `id` breaks the last ties.
 */
export interface FileCursor {
  uploadedAt?: number;
  nameKey?: string;
  id?: string;
}

export interface FileListQuery {
  ownerId: string;
  /** A folder id, or null for the root. Ignored for search and media listings, which span the drive. */
  folderId: string | null;
  trashMode: boolean;
  search?: string;
  /** Media mode: only these kinds, across the whole drive. */
  mediaKinds?: MediaKind[];
  sort: FileSort;
  limit: number;
  cursor?: FileCursor;
}

const LIST_ARGUMENTS = {
  owner: new QueryArgument<FileListQuery>((q) => q.ownerId),
  folder: new QueryArgument<FileListQuery>((q) => q.folderId),
  limit: new QueryArgument<FileListQuery>((q) => q.limit),
  uploadedAt: new QueryArgument<FileListQuery>((q) => q.cursor?.uploadedAt),
  nameKey: new QueryArgument<FileListQuery>((q) => q.cursor?.nameKey),
  id: new QueryArgument<FileListQuery>((q) => q.cursor?.id),
};

export class FileRepository {
  /** Compiled SQL of folder listings by shape; a few dozen shapes at most. */
  private readonly folderLists = new Map<string, CompiledQuery>();
  /** Compiled SQL of the quick list (see recent). */
  private recentList: CompiledQuery | undefined;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  async insert(row: FileRow): Promise<void> {
    await this.db.insertInto('file').values(row).execute();
  }

  findOwned(ownerId: string, id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('file').selectAll().where('id', '=', id).where('ownerId', '=', ownerId).executeTakeFirst();
  }

  findById(id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('file').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The owner's active files with a public or one-time file link (the share popup's), newest first. */
  linked(ownerId: string, limit: number): Promise<FileRow[]> {
    return this.db
      .selectFrom('file')
      .selectAll()
      .where('ownerId', '=', ownerId)
      .where('linkType', 'is not', null)
      .where('trashedAt', 'is', null)
      .orderBy('updatedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Whether an active file of the owner in that folder already has this name (its key). */
  async hasActiveName(ownerId: string, folderId: string | null, nameKey: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('file')
      .select('id')
      .where('ownerId', '=', ownerId)
      .where('folderId', folderId === null ? 'is' : '=', folderId)
      .where('nameKey', '=', nameKey)
      .where('trashedAt', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async list(q: FileListQuery): Promise<FileRow[]> {
    return (await this.listQuery(q)).selectAll().execute();
  }

  /** The page `list` gives, with the columns a listing shows. */
  async listShown(q: FileListQuery): Promise<ShownFile[]> {
    const readArrays = arrayRowReaderOf(this.db);
    if (readArrays && q.search === undefined && !q.mediaKinds) {
      const { sql, parameters } = await this.folderListOf(q);
      const rows = await readArrays(sql, bindArguments(parameters, q));
      return q.trashMode ? rows.map(shownFileOf) : rows.map((v) => pageFileOf(v, q.ownerId, q.folderId));
    }
    return this.shown((await this.listQuery(q)).select(SHOWN_COLUMNS));
  }

  /**
   * A folder's (or the trash's) page compiled to SQL once per shape: which folder kind, trash or
   * not, sort and cursor fields. Building the query tree and compiling it cost as much as a third
   * of reading the page; the owner, folder, limit and cursor values are bound at each run.
   */
  private async folderListOf(q: FileListQuery): Promise<CompiledQuery> {
    const c = q.cursor;
    const shape = `${q.folderId === null}|${q.trashMode}|${q.sort}|${c?.uploadedAt !== undefined}|${c?.nameKey !== undefined}|${c?.id !== undefined}`;
    let compiled = this.folderLists.get(shape);
    if (!compiled) {
      compiled = (
        await this.listQuery({
          ownerId: LIST_ARGUMENTS.owner as never,
          folderId: q.folderId === null ? null : (LIST_ARGUMENTS.folder as never),
          trashMode: q.trashMode,
          sort: q.sort,
          limit: LIST_ARGUMENTS.limit as never,
          cursor: c && {
            uploadedAt: c.uploadedAt === undefined ? undefined : (LIST_ARGUMENTS.uploadedAt as never),
            nameKey: c.nameKey === undefined ? undefined : (LIST_ARGUMENTS.nameKey as never),
            id: c.id === undefined ? undefined : (LIST_ARGUMENTS.id as never),
          },
        })
      )
        .select(q.trashMode ? SHOWN_COLUMNS : PAGE_COLUMNS)
        .compile();
      this.folderLists.set(shape, compiled);
    }
    return compiled;
  }

  private async listQuery(q: FileListQuery) {
    const rare = q.search === undefined ? null : await rareNameMatch(this.db, this.dialect, 'file', q.ownerId, q.search);
    let query = this.db.selectFrom('file').where(rare ? ownerOfRareMatch('file') : 'ownerId', '=', q.ownerId);
    if (q.mediaKinds) {
      query = query.where('mediaKind', 'in', q.mediaKinds).where('trashedAt', 'is', null);
      // A Live Photo shows once, as its still: the MOV of an active still stays out of the gallery.
      query = query.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('livePhoto')
              .innerJoin('file as still', 'still.id', 'livePhoto.photoFileId')
              .select('livePhoto.videoFileId')
              .whereRef('livePhoto.videoFileId', '=', 'file.id')
              .where('still.trashedAt', 'is', null),
          ),
        ),
      );
      if (q.search) query = query.where(nameContains(this.dialect, 'file', q.search, rare));
    } else if (q.search) {
      query = query.where(nameContains(this.dialect, 'file', q.search, rare));
      query = q.trashMode ? query.where('trashedAt', 'is not', null) : query.where('trashedAt', 'is', null);
    } else if (q.trashMode && q.folderId === null) {
      query = query.where('trashedAt', 'is not', null).where('trashedVia', 'is', null);
    } else {
      query = query.where('folderId', q.folderId === null ? 'is' : '=', q.folderId);
      query = q.trashMode ? query.where('trashedAt', 'is not', null) : query.where('trashedAt', 'is', null);
    }

    const direction = q.sort.endsWith('asc') ? 'asc' : 'desc';
    const [first, second] = q.sort.startsWith('alp') ? (['nameKey', 'uploadedAt'] as const) : (['uploadedAt', 'nameKey'] as const);
    const after = direction === 'asc' ? '>' : '<';
    const c = q.cursor;
    if (c && c[first] !== undefined) {
      const [a, b, id] = [c[first], c[second], c.id];
      query =
        b === undefined
          ? query.where(first, after, a)
          : id === undefined
            ? query.where((eb) => eb(eb.refTuple(first, second), after, eb.tuple(a, b)))
            : query.where((eb) => eb(eb.refTuple(first, second, 'id'), after, eb.tuple(a, b, id)));
    }
    return query.orderBy(first, direction).orderBy(second, direction).orderBy('id', direction).limit(q.limit);
  }

  /** Bytes the owner's files take, trash included. */
  async bytesUsed(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('file')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('used'))
      .where('ownerId', '=', ownerId)
      .executeTakeFirstOrThrow();
    return Number(row.used);
  }

  /**
   * Bytes counted against the owner's quota, in one statement: their files (trash included), the
   * files' kept versions, and the declared length of each unfinished resumable upload, reserved
   * when it was created. `exceptUpload` leaves out the reservation of the upload whose file is
   * being made.
   */
  async bytesCharged(ownerId: string, exceptUpload?: string): Promise<number> {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('file')
          .select((f) => f.fn.coalesce(f.fn.sum<number>('size'), f.lit(0)).as('n'))
          .where('ownerId', '=', ownerId)
          .as('files'),
        eb
          .selectFrom('tusUpload')
          .select((u) => u.fn.coalesce(u.fn.sum<number>('length'), u.lit(0)).as('n'))
          .where('ownerId', '=', ownerId)
          .where('fileId', 'is', null)
          .$if(exceptUpload !== undefined, (q) => q.where('id', '!=', exceptUpload!))
          .as('pending'),
        eb
          .selectFrom('fileVersion')
          .select((v) => v.fn.coalesce(v.fn.sum<number>('size'), v.lit(0)).as('n'))
          .where('ownerId', '=', ownerId)
          .as('versions'),
      ])
      .executeTakeFirstOrThrow();
    return Number(row.files) + Number(row.pending) + Number(row.versions);
  }

  /** Most recent active files of the owner, with the columns a listing shows. */
  async recent(ownerId: string, limit: number): Promise<ShownFile[]> {
    const readArrays = arrayRowReaderOf(this.db);
    if (!readArrays) return this.recentQuery(ownerId, limit, SHOWN_COLUMNS).execute();
    // Compiled once; the owner and the trash time are fixed by the query, only the folder is read.
    this.recentList ??= this.recentQuery(
      LIST_ARGUMENTS.owner as never,
      LIST_ARGUMENTS.limit as never,
      [...PAGE_COLUMNS, 'folderId'] as const,
    ).compile();
    const q = { ownerId, limit } as FileListQuery;
    const { sql, parameters } = this.recentList;
    const rows = await readArrays(sql, bindArguments(parameters, q));
    return rows.map((v) => pageFileOf(v, ownerId, null));
  }

  private recentQuery<C extends keyof FileRow>(ownerId: string, limit: number, columns: readonly C[]) {
    return this.db
      .selectFrom('file')
      .select(columns)
      .where('ownerId', '=', ownerId)
      .where('trashedAt', 'is', null)
      .orderBy('uploadedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
  }

  /** Runs a query selecting SHOWN_COLUMNS: on SQLite reading its rows as arrays, which costs half as much. */
  private async shown(query: Compilable<ShownFile> & { execute(): Promise<ShownFile[]> }): Promise<ShownFile[]> {
    const readArrays = arrayRowReaderOf(this.db);
    if (!readArrays) return query.execute();
    const { sql, parameters } = query.compile();
    return (await readArrays(sql, parameters)).map(shownFileOf);
  }

  async rename(id: string, filename: string, nameKey: string, now: number): Promise<void> {
    await this.db.updateTable('file').set({ filename, nameKey, updatedAt: now }).where('id', '=', id).execute();
  }

  /**
   * Swaps a file's content (bytes, type, hash, dates, author) and drops its derived media; answers
   * the blob keys of the old thumbnail, preview and video rendition, which the caller hands to the deletion job.
   * The old content's own blob is the caller's to keep (as a version) or release.
   */
  async replaceContent(next: FileRow): Promise<string[]> {
    const media = await this.db.deleteFrom('fileMedia').where('fileId', '=', next.id).returning(['thumbnailId', 'previewId']).execute();
    const renditions = await this.db.deleteFrom('fileRendition').where('fileId', '=', next.id).returning('blobKey').execute();
    // A new content is no longer the still or the MOV of its Live Photo, and its motion is read again.
    const motion = await this.db.deleteFrom('fileMotion').where('fileId', '=', next.id).returning('clipId').execute();
    await this.db
      .deleteFrom('livePhoto')
      .where((eb) => eb.or([eb('photoFileId', '=', next.id), eb('videoFileId', '=', next.id)]))
      .execute();
    const old = await this.db.selectFrom('file').select('thumbnailId').where('id', '=', next.id).executeTakeFirst();
    await this.db
      .updateTable('file')
      .set({
        size: next.size,
        contentType: next.contentType,
        mediaKind: next.mediaKind,
        sha256: next.sha256,
        crc32: next.crc32,
        storageKey: next.storageKey,
        wrappedKey: next.wrappedKey,
        uploadedAt: next.uploadedAt,
        updatedAt: next.updatedAt,
        thumbnailId: null,
        contentAuthorId: next.contentAuthorId,
        contentVia: next.contentVia,
      })
      .where('id', '=', next.id)
      .execute();
    const keys = new Set<string>();
    for (const m of media) for (const k of [m.thumbnailId, m.previewId]) if (k) keys.add(k);
    for (const r of renditions) if (r.blobKey) keys.add(r.blobKey);
    for (const m of motion) if (m.clipId) keys.add(m.clipId);
    if (old?.thumbnailId) keys.add(old.thumbnailId);
    return [...keys];
  }

  async move(id: string, folderId: string | null, now: number): Promise<void> {
    await this.db.updateTable('file').set({ folderId, updatedAt: now }).where('id', '=', id).execute();
  }

  async setLink(id: string, linkType: LinkType | null, linkToken: string | null, now: number): Promise<void> {
    await this.db.updateTable('file').set({ linkType, linkToken, updatedAt: now }).where('id', '=', id).execute();
  }

  /**
   * Makes a one-time link private and answers the row, in one conditional statement: of any
   * number of concurrent callers (in any process) exactly one gets the row, the others undefined.
   */
  consumeOneTimeLink(id: string, linkToken: string, now: number): Promise<FileRow | undefined> {
    return this.db
      .updateTable('file')
      .set({ linkType: null, linkToken: null, updatedAt: now })
      .where('id', '=', id)
      .where('linkType', '=', 'one')
      .where('linkToken', '=', linkToken)
      .where('trashedAt', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }
}
