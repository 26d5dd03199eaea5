import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Db, Dialect } from '../../db/database.js';
import type { FileTable, FolderTable, SearchEntryTable, SearchKind } from '../../db/schema.js';

export type SearchEntry = Selectable<SearchEntryTable>;

export interface SearchFilters {
  kinds: SearchKind[];
  dateRange: { from: number; to: number } | null;
  /** Lower-cased words that the entry's place must contain. */
  place: string | null;
  anyPlace: boolean;
}

export interface VectorRow {
  itemId: string;
  itemType: 'file' | 'folder';
  kind: SearchKind | null;
  contentDate: number | null;
  place: string | null;
  modelId: string | null;
  embedding: Buffer | null;
  indexedAt: number;
}

/** Search entries: upserts by the indexer, keyword retrieval and vector loading for queries. */
export class SearchRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  find(itemId: string): Promise<SearchEntry | undefined> {
    return this.db.selectFrom('searchEntry').selectAll().where('itemId', '=', itemId).executeTakeFirst();
  }

  async upsert(entry: SearchEntry): Promise<void> {
    const { itemId: _id, ...rest } = entry;
    await this.db
      .insertInto('searchEntry')
      .values(entry)
      .onConflict((oc) => oc.column('itemId').doUpdateSet(rest))
      .execute();
  }

  async remove(itemId: string): Promise<void> {
    await this.db.deleteFrom('searchEntry').where('itemId', '=', itemId).execute();
  }

  /** Entries (re)indexed at or after `since`: the vector cache's delta. */
  vectorsSince(ownerId: string, since: number): Promise<VectorRow[]> {
    return this.db
      .selectFrom('searchEntry')
      .select(['itemId', 'itemType', 'kind', 'contentDate', 'place', 'modelId', 'embedding', 'indexedAt'])
      .where('ownerId', '=', ownerId)
      .where('indexedAt', '>=', since)
      .execute();
  }

  /** Entries whose words match any term, best first, within the filters (folders ignore kind and date). */
  async keyword(ownerId: string, terms: string[], filters: SearchFilters, limit: number): Promise<{ itemId: string; itemType: string }[]> {
    if (terms.length === 0) return [];
    const query =
      this.dialect === 'postgres'
        ? this.db
            .selectFrom('searchEntry as e')
            .where(sql<boolean>`e.body_tsv @@ to_tsquery('english', ${terms.join(' | ')})`)
            .orderBy(sql`ts_rank_cd(e.body_tsv, to_tsquery('english', ${terms.join(' | ')}))`, 'desc')
        : this.db
            .selectFrom(sql<{ rowid: number }>`search_entry_fts`.as('search_entry_fts'))
            .innerJoin('searchEntry as e', (join) => join.on(sql<boolean>`e.rowid = search_entry_fts.rowid`))
            .where(sql<boolean>`search_entry_fts match ${terms.map((t) => `"${t}"`).join(' OR ')}`)
            .orderBy(sql`bm25(search_entry_fts)`);
    return query.where('e.ownerId', '=', ownerId).where(this.filterSql(filters)).select(['e.itemId', 'e.itemType']).limit(limit).execute();
  }

  /** Newest entries within the filters, for queries that are only filters ("videos from last summer"). */
  recent(ownerId: string, filters: SearchFilters, limit: number): Promise<{ itemId: string; itemType: string }[]> {
    return this.db
      .selectFrom('searchEntry as e')
      .where('e.ownerId', '=', ownerId)
      .where('e.itemType', '=', 'file')
      .where(this.filterSql(filters))
      .select(['e.itemId', 'e.itemType'])
      .orderBy('e.contentDate', 'desc')
      .limit(limit)
      .execute();
  }

  /** The owner's non-trashed files among `ids` (entries may outlive or lag their files). */
  liveFiles(ownerId: string, ids: string[]): Promise<FileTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('file')
      .selectAll()
      .where('ownerId', '=', ownerId)
      .where('id', 'in', ids)
      .where('trashedAt', 'is', null)
      .execute();
  }

  liveFolders(ownerId: string, ids: string[]): Promise<FolderTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('folder')
      .selectAll()
      .where('ownerId', '=', ownerId)
      .where('id', 'in', ids)
      .where('trashedAt', 'is', null)
      .execute();
  }

  async hasPlace(ownerId: string, place: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('searchEntry')
      .select('itemId')
      .where('ownerId', '=', ownerId)
      .where(sql<boolean>`lower(place) like ${`%${place.replace(/[\\%_]/g, '')}%`}`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The filters as one SQL condition on alias `e`; folders have no kind or date, so those never exclude them. */
  private filterSql(f: SearchFilters): RawBuilder<SqlBool> {
    const parts: RawBuilder<unknown>[] = [sql`true`];
    const isFolder = sql`e.item_type = 'folder'`;
    if (f.kinds.length > 0) parts.push(sql`(${isFolder} or e.kind in (${sql.join(f.kinds)}))`);
    if (f.dateRange) parts.push(sql`(${isFolder} or (e.content_date >= ${f.dateRange.from} and e.content_date < ${f.dateRange.to}))`);
    if (f.place) parts.push(sql`lower(e.place) like ${`%${f.place.replace(/[\\%_]/g, '')}%`}`);
    else if (f.anyPlace) parts.push(sql`e.place is not null`);
    return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
  }
}
