import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Db, Dialect } from '../../db/database.js';
import type { FileTable, FolderTable, SearchEntryTable, SearchKind } from '../../db/schema.js';

export type SearchEntry = Selectable<SearchEntryTable>;

/** Keyword matches ranked before filtering; enough that filters rarely empty the list. */
const KEYWORD_POOL = 500;

export interface SearchFilters {
  kinds: SearchKind[];
  dateRange: { from: number; to: number } | null;
  /** Lower-cased words that the entry's place must contain. */
  place: string | null;
  anyPlace: boolean;
  /** Only these files (those showing a person the query names); null or absent: any. */
  within?: string[] | null;
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

/** Which embedding of an entry: of its words, or of its picture (photos and videos). */
export type VectorField = 'text' | 'image';

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

  /**
   * Entries (re)indexed at or after `since`: the vector cache's delta, of the text embeddings or
   * of the pictures' image–text embeddings.
   */
  vectorsSince(ownerId: string, since: number, field: VectorField = 'text'): Promise<VectorRow[]> {
    const vector =
      field === 'text' ? (['modelId', 'embedding'] as const) : (['imageModelId as modelId', 'imageEmbedding as embedding'] as const);
    return this.db
      .selectFrom('searchEntry')
      .select(['itemId', 'itemType', 'kind', 'contentDate', 'place', 'indexedAt', ...vector])
      .where('ownerId', '=', ownerId)
      .where('indexedAt', '>=', since)
      .execute();
  }

  /** Entries whose words match any term, best first, within the filters (folders ignore kind and date). */
  async keyword(ownerId: string, terms: string[], filters: SearchFilters, limit: number): Promise<{ itemId: string; itemType: string }[]> {
    if (terms.length === 0) return [];
    if (this.dialect === 'postgres') {
      const query = sql`to_tsquery('english', ${terms.join(' | ')})`;
      return this.db
        .selectFrom('searchEntry as e')
        .where('e.ownerId', '=', ownerId)
        .where(sql<boolean>`e.body_tsv @@ ${query}`)
        .where(this.filterSql(filters))
        .orderBy(sql`ts_rank_cd(e.body_tsv, ${query})`, 'desc')
        .select(['e.itemId', 'e.itemType'])
        .limit(limit)
        .execute();
    }
    // The owner narrows the match inside FTS5; only the best few hundred are joined and filtered.
    const match = `owner_id:"${ownerId.replace(/"/g, '')}" AND (${terms.map((t) => `body:"${t}"`).join(' OR ')})`;
    const { rows } = await sql<{ itemId: string; itemType: string }>`
      select e.item_id as "itemId", e.item_type as "itemType"
      from (select rowid, bm25(search_entry_fts, 0.0, 1.0) as score from search_entry_fts
            where search_entry_fts match ${match} order by score limit ${KEYWORD_POOL}) m
      join search_entry e on e.rowid = m.rowid
      where e.owner_id = ${ownerId} and ${this.filterSql(filters)}
      order by m.score limit ${limit}`.execute(this.db);
    return rows;
  }

  /** Whether any of the owner's entries holds the word (as the word index stems it). */
  async hasTerm(ownerId: string, term: string): Promise<boolean> {
    if (this.dialect === 'postgres') {
      const row = await this.db
        .selectFrom('searchEntry')
        .select('itemId')
        .where('ownerId', '=', ownerId)
        .where(sql<boolean>`body_tsv @@ plainto_tsquery('english', ${term})`)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    }
    const match = `owner_id:"${ownerId.replace(/"/g, '')}" AND body:"${term.replace(/"/g, '')}"`;
    const { rows } = await sql`select 1 from search_entry_fts where search_entry_fts match ${match} limit 1`.execute(this.db);
    return rows.length > 0;
  }

  /** Newest files within the filters, for queries that are only filters ("videos from last summer"). */
  recent(ownerId: string, filters: SearchFilters, limit: number): Promise<{ itemId: string; itemType: string }[]> {
    let query = this.db.selectFrom('searchEntry as e').where('e.ownerId', '=', ownerId).where('e.itemType', '=', 'file');
    // Plain conditions (no OR with folders) so the (owner, kind, date) index serves them.
    if (filters.kinds.length > 0) query = query.where('e.kind', 'in', filters.kinds);
    if (filters.dateRange)
      query = query.where('e.contentDate', '>=', filters.dateRange.from).where('e.contentDate', '<', filters.dateRange.to);
    return query
      .where(this.filterSql({ ...filters, kinds: [], dateRange: null }))
      .select(['e.itemId', 'e.itemType'])
      .orderBy('e.contentDate', 'desc')
      .limit(limit)
      .execute();
  }

  /** The owner's non-trashed files among `ids` (entries may outlive or lag their files). */
  async liveFiles(ownerId: string, ids: string[]): Promise<FileTable[]> {
    if (ids.length === 0) return [];
    // By primary key only: an owner condition tempts the planner into scanning the owner's index.
    const rows = await this.db.selectFrom('file').selectAll().where('id', 'in', ids).execute();
    return rows.filter((r) => r.ownerId === ownerId && r.trashedAt === null);
  }

  async liveFolders(ownerId: string, ids: string[]): Promise<FolderTable[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('folder').selectAll().where('id', 'in', ids).execute();
    return rows.filter((r) => r.ownerId === ownerId && r.trashedAt === null);
  }

  /** Whether any of the owner's entries was made at a place whose name contains `place`. */
  async hasPlace(ownerId: string, place: string): Promise<boolean> {
    const like = `%${place.replace(/[\\%_]/g, '')}%`;
    if (this.dialect === 'postgres') {
      const row = await this.db
        .selectFrom('searchEntry')
        .select('itemId')
        .where('ownerId', '=', ownerId)
        .where(sql<boolean>`body_tsv @@ plainto_tsquery('english', ${place})`)
        .where(sql<boolean>`lower(place) like ${like}`)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    }
    // Place names are part of the words, so the word index finds the candidates.
    const match = `owner_id:"${ownerId.replace(/"/g, '')}" AND body:"${place.replace(/"/g, '')}"`;
    const { rows } = await sql`
      select 1 from (select rowid from search_entry_fts where search_entry_fts match ${match} limit ${KEYWORD_POOL}) m
      join search_entry e on e.rowid = m.rowid where lower(e.place) like ${like} limit 1`.execute(this.db);
    return rows.length > 0;
  }

  /** The filters as one SQL condition on alias `e`; folders have no kind or date, so those never exclude them. */
  private filterSql(f: SearchFilters): RawBuilder<SqlBool> {
    const parts: RawBuilder<unknown>[] = [sql`true`];
    const isFolder = sql`e.item_type = 'folder'`;
    if (f.kinds.length > 0) parts.push(sql`(${isFolder} or e.kind in (${sql.join(f.kinds)}))`);
    if (f.dateRange) parts.push(sql`(${isFolder} or (e.content_date >= ${f.dateRange.from} and e.content_date < ${f.dateRange.to}))`);
    if (f.place) parts.push(sql`lower(e.place) like ${`%${f.place.replace(/[\\%_]/g, '')}%`}`);
    else if (f.anyPlace) parts.push(sql`e.place is not null`);
    if (f.within) parts.push(f.within.length > 0 ? sql`e.item_id in (${sql.join(f.within)})` : sql`false`);
    return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
  }
}
