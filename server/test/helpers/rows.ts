import type { FileRow } from '../../src/db/repositories/file.repository.js';
import { newId } from '../../src/security/ids.js';

/** A file row as the app would store it, with placeholder bytes: for tests that fill the database directly. */
export function fileRow(ownerId: string, filename: string, fields: Partial<FileRow> = {}): FileRow {
  const uploadedAt = fields.uploadedAt ?? Date.now();
  return {
    id: newId(),
    ownerId,
    folderId: null,
    filename,
    nameKey: filename.toLowerCase(),
    size: 1,
    contentType: 'text/plain',
    mediaKind: null,
    sha256: 'x',
    crc32: null,
    storageKey: newId(),
    wrappedKey: 'x',
    uploadedAt,
    updatedAt: uploadedAt,
    trashedAt: null,
    trashedVia: null,
    linkType: null,
    linkToken: null,
    thumbnailId: null,
    createdAt: uploadedAt,
    contentAuthorId: ownerId,
    contentVia: null,
    ...fields,
  };
}
