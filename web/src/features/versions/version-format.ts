import type { ContentAuthorDto, RestoreAsOfResultDto } from '@nimbus/common';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 hours ago", "yesterday", "just now". */
export function relativeTime(value: string, now: number): string {
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

/** Who stored a content: the account's e-mail and the app password it came through, when known. */
export function authorLine(author: ContentAuthorDto): string | null {
  const via = author.via ? `via ${author.via}` : null;
  if (!author.account) return via;
  return via ? `${author.account.email} ${via}` : author.account.email;
}

export type PreviewKind = 'image' | 'video' | null;

/** What the preview popup shows of a content: images and videos, as it does for the current one. */
export function previewKindOf(contentType: string): PreviewKind {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  return null;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The toast after a folder's restore as it was: what went back, came back and went to the trash. */
export function restoreAsOfSummary(result: RestoreAsOfResultDto): string {
  const parts = [
    result.revertedFiles > 0 &&
      count(result.revertedFiles, 'file went back to its earlier content', 'files went back to their earlier content'),
    result.restoredFromTrash > 0 && `${count(result.restoredFromTrash, 'item', 'items')} came back from the trash`,
    result.movedToTrash > 0 && `${count(result.movedToTrash, 'new file', 'new files')} moved to the trash`,
    result.notRecoverable > 0 && `${count(result.notRecoverable, 'file has', 'files have')} no content kept from that time`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.length === 0 ? 'Nothing to restore: nothing changed since then' : `Restored: ${parts.join('; ')}`;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A local date and time as a `datetime-local` input takes it (to the minute). */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
