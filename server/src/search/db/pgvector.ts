import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import { KINDS } from '../rank/owner-vectors.js';
import type { VectorFilter, VectorHit, VectorSearch } from '../rank/vector-index.js';

/**
 * Image retrieval inside PostgreSQL with the pgvector extension, when the server has it installed
 * (it is not in every distribution's packages; without it the in-memory index serves). The pictures'
 * int8 vectors are copied into a `vector` column by a trigger, so every writer (any server process,
 * any version of the indexer) keeps it current, and cosine distance (`<=>`) ranks them.
 */
export class PgVectorIndex implements VectorSearch {
  private enabled: Promise<boolean> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** Whether the extension is (now) set up in this database; checked once per process. */
  available(): Promise<boolean> {
    this.enabled ??= this.enable().catch((err: unknown) => {
      this.log.warn({ err }, 'pgvector is installed but could not be set up; pictures are searched in memory');
      return false;
    });
    return this.enabled;
  }

  async search(
    ownerId: string,
    modelId: string,
    query: Float32Array,
    filter: VectorFilter,
    limit: number,
    contrast: Float32Array[] = [],
  ): Promise<VectorHit[]> {
    const q = literal(query);
    const against =
      contrast.length > 0
        ? sql`greatest(${sql.join(contrast.map((c) => sql`1 - (e.image_vector <=> ${literal(c)}::vector)`))})`
        : sql`null`;
    const { rows } = await sql<{ itemId: string; itemType: string; kind: string | null; score: number; contrast: number | null }>`
      select e.item_id as "itemId", e.item_type as "itemType", e.kind, 1 - (e.image_vector <=> ${q}::vector) as score, ${against} as contrast
      from search_entry e
      where e.owner_id = ${ownerId} and e.image_model_id = ${modelId} and e.image_vector is not null
        and vector_dims(e.image_vector) = ${query.length} and ${filterSql(filter)}
      order by e.image_vector <=> ${q}::vector
      limit ${limit}`.execute(this.db);
    return rows.map((r) => ({
      itemId: r.itemId,
      itemType: r.itemType === 'folder' ? 'folder' : 'file',
      kind: KINDS.find((k) => k === r.kind) ?? null,
      score: Number(r.score),
      ...(r.contrast === null ? {} : { contrast: Number(r.contrast) }),
    }));
  }

  private async enable(): Promise<boolean> {
    if (!(await hasPgvector(this.db))) return false;
    // One process at a time sets it up; the others find it done.
    await this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('nimbus:pgvector'))`.execute(trx);
      await sql`create extension if not exists vector`.execute(trx);
      await sql`alter table search_entry add column if not exists image_vector vector`.execute(trx);
      await sql`
        create or replace function nimbus_image_vector() returns trigger language plpgsql as $$
        begin
          new.image_vector := case when new.image_embedding is null then null else (
            select array_agg(case when get_byte(new.image_embedding, i) > 127 then get_byte(new.image_embedding, i) - 256
                                  else get_byte(new.image_embedding, i) end order by i)::real[]::vector
            from generate_series(0, length(new.image_embedding) - 1) i) end;
          return new;
        end $$`.execute(trx);
      await sql`drop trigger if exists search_entry_image_vector on search_entry`.execute(trx);
      await sql`
        create trigger search_entry_image_vector before insert or update of image_embedding on search_entry
        for each row execute function nimbus_image_vector()`.execute(trx);
      // Pictures embedded before the trigger existed: setting the column to itself runs it.
      await sql`update search_entry set image_embedding = image_embedding where image_embedding is not null and image_vector is null`.execute(
        trx,
      );
    });
    this.log.info({}, 'pictures are searched with pgvector');
    return true;
  }
}

/** Whether the PostgreSQL server offers the pgvector extension (installed or installable). */
export async function hasPgvector(db: Db): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`select name from pg_available_extensions where name = 'vector'`.execute(db);
  return rows.length > 0;
}

/** A vector as pgvector reads it: `[0.1,-0.2,…]`. */
function literal(vector: Float32Array): string {
  return `[${Array.from(vector, (v) => (Number.isFinite(v) ? v : 0)).join(',')}]`;
}

function filterSql(f: VectorFilter): RawBuilder<SqlBool> {
  const parts: RawBuilder<unknown>[] = [sql`e.item_type = 'file'`];
  if (f.kinds.length > 0) parts.push(sql`e.kind in (${sql.join(f.kinds)})`);
  if (f.dateRange) parts.push(sql`e.content_date >= ${f.dateRange.from} and e.content_date < ${f.dateRange.to}`);
  if (f.place === true) parts.push(sql`e.place is not null`);
  else if (f.place) parts.push(sql`lower(e.place) like ${`%${f.place.replace(/[\\%_]/g, '')}%`}`);
  if (f.within) parts.push(f.within.size > 0 ? sql`e.item_id in (${sql.join([...f.within])})` : sql`false`);
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}
