import type { Readable } from 'node:stream';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { ByteRange, EncryptedStore } from '../../storage/blob-store.js';

export type { ByteRange } from '../../storage/blob-store.js';

/** Stored bytes ready to send: what a download needs to know, and a way to open (decrypt) them. */
export interface StoredAsset {
  filename: string;
  size: number;
  contentType: string;
  sha256: string;
  modifiedAt: number;
  open(range?: ByteRange): Promise<Readable>;
}

/** A file's own bytes as an asset: decrypted with its wrapped key, only the chunks a range needs. */
export function fileAsset(file: FileRow, store: EncryptedStore): StoredAsset {
  return {
    filename: file.filename,
    size: file.size,
    contentType: file.contentType,
    sha256: file.sha256,
    modifiedAt: file.uploadedAt,
    open: (range) => store.read(file.storageKey, file.wrappedKey, file.size, range),
  };
}
