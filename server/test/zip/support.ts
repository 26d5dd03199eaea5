import type { FastifyInstance } from 'fastify';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import type { FileRow } from '../../src/db/repositories/file.repository.js';
import { newId } from '../../src/security/ids.js';

export interface Unzipped {
  /** File entries by path, with their bytes. */
  files: Map<string, Buffer>;
  /** Directory entries (paths end in `/`). */
  directories: string[];
  entryCount: number;
}

/** Reads a whole archive with an independent zip reader (ZIP64 included), checking each file's CRC-32 as unzip tools do. */
export async function unzip(archive: Buffer, options: { readContents?: boolean } = {}): Promise<Unzipped> {
  const zip = await yauzl.fromBufferPromise(archive, { strictFileNames: true, validateEntrySizes: true });
  const files = new Map<string, Buffer>();
  const directories: string[] = [];
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName.endsWith('/')) {
      directories.push(entry.fileName);
      continue;
    }
    if (options.readContents === false) {
      files.set(entry.fileName, Buffer.alloc(0));
      continue;
    }
    const parts: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) parts.push(chunk as Buffer);
    const contents = Buffer.concat(parts);
    // yauzl itself does not check it.
    if (crc32(contents) !== entry.crc32) throw new Error(`${entry.fileName}: CRC-32 ${entry.crc32}, contents ${crc32(contents)}`);
    files.set(entry.fileName, contents);
  }
  return { files, directories, entryCount: zip.entryCount };
}

/**
 * Many file rows at once, all sharing the stored bytes of `template` (an uploaded file): the zip
 * reads each row's bytes separately, so this stands in for as many distinct files.
 */
export async function insertCopies(app: FastifyInstance, template: FileRow, count: number, name: (i: number) => string): Promise<void> {
  const db = app.database.db;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i += 500) {
      const rows: FileRow[] = [];
      for (let j = i; j < Math.min(count, i + 500); j++) {
        const filename = name(j);
        rows.push({
          ...template,
          id: newId(),
          filename,
          nameKey: filename.toLowerCase(),
          thumbnailId: null,
          linkType: null,
          linkToken: null,
        });
      }
      await trx.insertInto('file').values(rows).execute();
    }
  });
}

export async function fileRow(app: FastifyInstance, id: string): Promise<FileRow> {
  return app.database.db.selectFrom('file').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
