import { fileTypeFromBuffer } from 'file-type';
import mime from 'mime-types';
import type { MediaKind } from '../db/schema.js';

/** How many leading bytes the content sniffer needs. */
export const SNIFF_BYTES = 4100;

/**
 * Content type from the bytes when they are recognisable, else from the extension.
 * Text formats have no magic number, so the extension decides for them.
 */
export async function detectContentType(head: Buffer, filename: string): Promise<string> {
  const sniffed = head.length > 0 ? await fileTypeFromBuffer(head) : undefined;
  if (sniffed) return sniffed.mime;
  const byName = mime.lookup(filename);
  return byName || 'application/octet-stream';
}

export function mediaKindOf(contentType: string): MediaKind | null {
  if (contentType.startsWith('video/')) return 'video';
  if (contentType.startsWith('image/')) return 'photo';
  return null;
}
