import { LIMITS } from '@nimbus/common';
import { sql, type CompiledQuery } from 'kysely';
import { arrayRowReaderOf, type Db, type Dialect } from '../database.js';
import { bindArguments, QueryArgument } from '../queries/bound-arguments.js';
import { preparedQuery } from '../prepared-query.js';
import { nameContains, trigramPhrase } from '../queries/name-search.js';
import type { FolderTable } from '../schema.js';

export type FolderRow = FolderTable;
export type FolderSort = 'date_asc' | 'date_desc' | 'alp_asc' | 'alp_desc';

export interface FolderListQuery {
  ownerId: string;
  /** A folder id, null for the root; ignored when `search` is set (search spans the drive). */
  parentId: string | null;
  trashMode: boolean;
  search?: string;
  sort: FolderSort;
  limit?: number;
  /** Excluded together with their descendants (the move dialog). */
  excludeSubtreesOf?: string[];
}

const LIST_ARGUMENTS = {
  owner: new QueryArgument<FolderListQuery>((q) => q.ownerId),
  parent: new QueryArgument<FolderListQuery>((q) => q.parentId),
  limit: new QueryArgument<FolderListQuery>((q) => q.limit),
};

/** The folder table's columns in the order `selectAll` reads them on SQLite, for rows read as arrays. */
const FOLDER_COLUMNS = [
  'id',
  'ownerId',
  'parentId',
  'name',
  'nameKey',
  'createdAt',
  'updatedAt',
  'trashedAt',
  'trashedVia',
] as const satisfies readonly (keyof FolderRow)[];

function folderOf(v: unknown[]): FolderRow {
  return {
    id: v[0] as string,
    ownerId: v[1] as string,
    parentId: v[2] as string | null,
    name: v[3] as string,
    nameKey: v[4] as string,
    createdAt: v[5] as number,
    updatedAt: v[6] as number,
    trashedAt: v[7] as number | null,
    trashedVia: v[8] as string | null,
  };
}

export class FolderRepository {
  /** Compiled SQL of folder listings (no search, nothing excluded) by shape. */
  private readonly lists = new Map<string, CompiledQuery>();
  /** `findOwned`, compiled at its first use: every list of a folder other than the root asks it. */
  private owned: ((args: string[]) => Promise<FolderRow[]>) | undefined;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  async insert(row: FolderRow): Promise<void> {
    await this.db.insertInto('folder').values(row).execute();
  }

  async findOwned(ownerId: string, id: string): Promise<FolderRow | undefined> {
    this.owned ??= preparedQuery(this.db, 2, ([owner, folder]: string[]) =>
      this.db.selectFrom('folder').selectAll().where('id', '=', folder!).where('ownerId', '=', owner!),
    );
    return (await this.owned([ownerId, id]))[0];
  }

  findById(id: string): Promise<FolderRow | undefined> {
    return this.db.selectFrom('folder').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(q: FolderListQuery): Promise<FolderRow[]> {
    const readArrays = arrayRowReaderOf(this.db);
    if (!readArrays || q.search || q.excludeSubtreesOf?.length) return this.listQuery(q).execute();
    // On SQLite a folder's listing is compiled to SQL once per shape and its rows read as arrays:
    // building and compiling the query cost more than running it.
    const shape = `${q.parentId === null}|${q.trashMode}|${q.sort}|${Boolean(q.limit)}`;
    let compiled = this.lists.get(shape);
    if (!compiled) {
      compiled = this.listQuery({
        ownerId: LIST_ARGUMENTS.owner as never,
        parentId: q.parentId === null ? null : (LIST_ARGUMENTS.parent as never),
        trashMode: q.trashMode,
        sort: q.sort,
        limit: q.limit ? (LIST_ARGUMENTS.limit as never) : undefined,
      })
        .clearSelect()
        .select(FOLDER_COLUMNS)
        .compile();
      this.lists.set(shape, compiled);
    }
    const rows = await readArrays(compiled.sql, bindArguments(compiled.parameters, q));
    return rows.map(folderOf);
  }

  private listQuery(q: FolderListQuery) {
    let query = this.db.selectFrom('folder').selectAll().where('ownerId', '=', q.ownerId);
    if (q.search) {
      query = query.where(nameContains(this.dialect, 'folder', q.search, trigramPhrase(q.search)));
      query = q.trashMode ? query.where('trashedAt', 'is not', null) : query.where('trashedAt', 'is', null);
    } else if (q.trashMode && q.parentId === null) {
      // The trash root shows the top-most trashed items only.
      query = query.where('trashedAt', 'is not', null).where('trashedVia', 'is', null);
    } else {
      query = query.where('parentId', q.parentId === null ? 'is' : '=', q.parentId);
      query = q.trashMode ? query.where('trashedAt', 'is not', null) : query.where('trashedAt', 'is', null);
    }
    if (q.excludeSubtreesOf?.length) {
      const excluded = this.subtreeQuery(q.ownerId, q.excludeSubtreesOf);
      query = query.where('id', 'not in', excluded);
    }
    const direction = q.sort.endsWith('asc') ? 'asc' : 'desc';
    query = q.sort.startsWith('alp') ? query.orderBy('nameKey', direction) : query.orderBy('updatedAt', direction);
    query = query.orderBy('id', direction);
    if (q.limit) query = query.limit(q.limit);
    return query;
  }

  /** Ids of the given folders and of every folder below them. */
  async subtreeIds(ownerId: string, rootIds: string[]): Promise<string[]> {
    if (rootIds.length === 0) return [];
    const rows = await this.subtreeQuery(ownerId, rootIds).execute();
    return rows.map((r) => r.id);
  }

  private subtreeQuery(ownerId: string, rootIds: string[]) {
    return this.db
      .withRecursive('subtree(id)', (qb) =>
        qb
          .selectFrom('folder')
          .select('id')
          .where('ownerId', '=', ownerId)
          .where('id', 'in', rootIds)
          // UNION, not UNION ALL: a damaged tree with a parent cycle still ends the walk.
          .union((q) => q.selectFrom('folder as child').innerJoin('subtree', 'subtree.id', 'child.parentId').select('child.id')),
      )
      .selectFrom('subtree')
      .select('subtree.id');
  }

  /** True when `folderId` is `ancestorId` or lies below it. */
  async isWithin(ownerId: string, folderId: string, ancestorId: string): Promise<boolean> {
    const row = await this.db
      .withRecursive('chain(id, parentId)', (qb) =>
        qb
          .selectFrom('folder')
          .select(['id', 'parentId'])
          .where('id', '=', folderId)
          .where('ownerId', '=', ownerId)
          .union((q) => q.selectFrom('folder as up').innerJoin('chain', 'chain.parentId', 'up.id').select(['up.id', 'up.parentId'])),
      )
      .selectFrom('chain')
      .select('chain.id')
      .where('chain.id', '=', ancestorId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Serialises changes to one owner's folder tree (moves, trash, restore, inserts into a folder)
   * until the transaction ends, across server processes. SQLite needs nothing: its one connection
   * runs one transaction at a time. (A trash or restore cascade that SQLite commits in batches spans
   * several transactions; TrashService orders those of one owner itself.)
   */
  async lockTree(ownerId: string): Promise<void> {
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`folder-tree:${ownerId}`}))`.execute(this.db);
  }

  /** Levels from the root down to `folderId` (a root folder is 1); bounded, so a cycle still answers. */
  async depthOf(folderId: string): Promise<number> {
    const bound = LIMITS.folderDepthMax + 1;
    const row = await this.db
      .withRecursive('chain(id, parentId, depth)', (qb) =>
        qb
          .selectFrom('folder')
          .select(['id', 'parentId', sql<number>`1`.as('depth')])
          .where('id', '=', folderId)
          .unionAll((q) =>
            q
              .selectFrom('folder as up')
              .innerJoin('chain', 'chain.parentId', 'up.id')
              .select(['up.id', 'up.parentId', sql<number>`chain.depth + 1`.as('depth')])
              .where('chain.depth', '<', bound),
          ),
      )
      .selectFrom('chain')
      .select((eb) => eb.fn.max('chain.depth').as('depth'))
      .executeTakeFirst();
    return Number(row?.depth ?? 0);
  }

  /** Levels below `folderId` (0 when it has no subfolders); bounded like `depthOf`. */
  async heightBelow(folderId: string): Promise<number> {
    const bound = LIMITS.folderDepthMax + 1;
    const row = await this.db
      .withRecursive('below(id, depth)', (qb) =>
        qb
          .selectFrom('folder')
          .select(['id', sql<number>`0`.as('depth')])
          .where('id', '=', folderId)
          .unionAll((q) =>
            q
              .selectFrom('folder as child')
              .innerJoin('below', 'below.id', 'child.parentId')
              .select(['child.id', sql<number>`below.depth + 1`.as('depth')])
              .where('below.depth', '<', bound),
          ),
      )
      .selectFrom('below')
      .select((eb) => eb.fn.max('below.depth').as('depth'))
      .executeTakeFirst();
    return Number(row?.depth ?? 0);
  }

  async rename(id: string, name: string, nameKey: string, now: number): Promise<void> {
    await this.db.updateTable('folder').set({ name, nameKey, updatedAt: now }).where('id', '=', id).execute();
  }

  async move(id: string, parentId: string | null, now: number): Promise<void> {
    await this.db.updateTable('folder').set({ parentId, updatedAt: now }).where('id', '=', id).execute();
  }
}
