import type { FileDto } from '@nimbus/common';
import type { FileCursor } from '../../api/drive.api';

/**
 * A next page exists only if no loaded page is shorter than the page size; it starts after the
 * last file of the last page (its date and name, with its id breaking ties).
 */
export function nextFileCursor(pages: readonly (readonly FileDto[])[], pageSize: number): FileCursor | undefined {
  if (pages.length === 0 || pages.some((page) => page.length < pageSize)) return undefined;
  const last = pages.at(-1)?.at(-1);
  if (!last) return undefined;
  return { startAtDate: last.uploadDate, startAtName: last.filename, startAtId: last._id };
}
