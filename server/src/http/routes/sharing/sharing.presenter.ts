import type { PublicFileDto } from '@nimbus/common';
import type { FileRow } from '../../../db/repositories/file.repository.js';

/** Only what the public download page shows; owner, folder and everything else stay hidden. */
export function presentPublicFile(row: FileRow): PublicFileDto {
  return {
    _id: row.id,
    filename: row.filename,
    length: row.size,
    uploadDate: new Date(row.uploadedAt).toISOString(),
    metadata: { linkType: row.linkType ?? 'public', size: row.size },
  };
}
