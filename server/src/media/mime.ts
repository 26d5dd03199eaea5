import path from 'node:path';
import mime from 'mime-types';
import type { MediaKind } from '../db/schema.js';
import { RAW_IMAGE_TYPES } from './formats.js';

/** How many leading bytes the content sniffer needs. */
export const SNIFF_BYTES = 4100;

/**
 * Content type from the bytes when they are recognisable, else from the extension.
 * Text formats have no magic number, so the extension decides for them.
 */
export async function detectContentType(head: Buffer, filename: string): Promise<string> {
  // The sniffer and its tables load at the first file that needs them, not at start.
  const sniffed = head.length > 0 ? await (await import('file-type')).fileTypeFromBuffer(head) : undefined;
  // Most RAW formats are TIFF inside and only some carry a mark the sniffer knows (a NEF or ORF often
  // reads as plain TIFF); a TIFF named as a RAW is taken as that RAW.
  const raw = RAW_IMAGE_TYPES.get(path.extname(filename).slice(1).toLowerCase());
  if (raw && (!sniffed || sniffed.mime === 'image/tiff')) return raw;
  if (sniffed) return sniffed.mime;
  const byName = mime.lookup(filename);
  return byName || 'application/octet-stream';
}

export function mediaKindOf(contentType: string): MediaKind | null {
  if (contentType.startsWith('video/')) return 'video';
  if (contentType.startsWith('image/')) return 'photo';
  return null;
}
