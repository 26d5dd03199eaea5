import type { LinkedFileDto, PublicFileDto } from '@nimbus/common';
import type { FileRow, ShownFile } from '../../../services/drive/file.service.js';
import { presentFile } from '../files/files.presenter.js';

/** A file just given a link: the file's own fields, plus the `{ file, token }` myDrive's client reads. */
export function presentLinkedFile(row: ShownFile): LinkedFileDto {
  const file = presentFile(row);
  const token = file.metadata.link;
  if (!token) throw new Error(`file ${row.id} was given a link but has no token`);
  return { ...file, file, token };
}

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
