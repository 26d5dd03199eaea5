import { sql, type Kysely } from 'kysely';

const RAW_BY_EXTENSION: Record<string, string> = {
  dng: 'image/x-adobe-dng',
  cr2: 'image/x-canon-cr2',
  cr3: 'image/x-canon-cr3',
  nef: 'image/x-nikon-nef',
  nrw: 'image/x-nikon-nef',
  arw: 'image/x-sony-arw',
  raf: 'image/x-fujifilm-raf',
  orf: 'image/x-olympus-orf',
};
const HEIF = ['image/heic', 'image/heic-sequence', 'image/heif', 'image/heif-sequence'];

/**
 * HEIC photos and camera RAW files stored before they could be shown: a RAW that was taken for a
 * plain TIFF or unknown bytes by its content gets its RAW type and counts as a photo (the gallery
 * lists it), and a thumbnail job that failed on either is forgotten, so the thumbnail backfill at
 * start makes it now. The files themselves are not touched.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [extension, type] of Object.entries(RAW_BY_EXTENSION)) {
    await sql`
      update file set content_type = ${type}, media_kind = 'photo'
      where lower(filename) like ${`%.${extension}`} and content_type in ('image/tiff', 'application/octet-stream')
    `.execute(db);
  }
  const types = [...HEIF, ...new Set(Object.values(RAW_BY_EXTENSION))];
  await sql`
    delete from file_media
    where status = 'failed' and file_id in (select id from file where content_type in (${sql.join(types)}))
  `.execute(db);
}
