import { sql, type Kysely } from 'kysely';

/**
 * Before moves were serialised per owner, two crossing moves could leave folders pointing at each
 * other as parents: a loop that hid them from every view. Such folders are moved to the root,
 * where their owner sees them again; nothing is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string }>`
    with recursive up_chain(start_id, id) as (
      select id, parent_id from folder where parent_id is not null
      union
      select up_chain.start_id, folder.parent_id
      from up_chain join folder on folder.id = up_chain.id
      where folder.parent_id is not null
    )
    select distinct start_id as id from up_chain where id = start_id`.execute(db);
  for (let i = 0; i < rows.length; i += 500) {
    const ids = rows.slice(i, i + 500).map((r) => r.id);
    await sql`update folder set parent_id = null where id in (${sql.join(ids)})`.execute(db);
  }
}
