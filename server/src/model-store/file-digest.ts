import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

export interface FileDigests {
  size: number;
  sha256: string;
  /** Git's blob id: sha1 of `blob <size>\0` followed by the bytes, what the hub lists for files kept outside LFS. */
  gitSha1: string;
}

/** Both digests in one read: model weights are hundreds of megabytes. */
export async function digestFile(file: string): Promise<FileDigests> {
  const { size } = await stat(file);
  const sha256 = createHash('sha256');
  const sha1 = createHash('sha1').update(`blob ${size}\0`);
  let read = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    sha256.update(chunk as Buffer);
    sha1.update(chunk as Buffer);
    read += (chunk as Buffer).length;
  }
  if (read !== size) throw new Error(`${file} changed while it was read`);
  return { size, sha256: sha256.digest('hex'), gitSha1: sha1.digest('hex') };
}
