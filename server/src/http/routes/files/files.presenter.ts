import type { FileDto, SharedAccessDto } from '@nimbus/common';
import type { ShownFile } from '../../../services/drive/file.service.js';
import type { PhotoMotionLink } from '../../../services/media/live-photo.service.js';

/** A file as the owner sees it, with the field names of the myDrive API (docs/architecture.md). */
export function presentFile(row: ShownFile): FileDto {
  return presentSharedFile(row, undefined);
}

/** The gallery's photo with its motion: the MOV of its Live Photo, or the clip of a motion photo. */
export function withMotion(dto: FileDto, link: PhotoMotionLink | undefined): FileDto {
  if (!link) return dto;
  if ('videoId' in link) dto.metadata.livePhoto = { videoId: link.videoId };
  else dto.metadata.motion = { url: `/file-service/motion/${encodeURIComponent(dto._id)}` };
  return dto;
}

/** A file as a recipient of a share sees it (the shared file itself sits at their root); as the owner without `shared`. */
export function presentSharedFile(row: ShownFile, shared: SharedAccessDto | undefined): FileDto {
  const dto: FileDto = {
    _id: row.id,
    filename: row.filename,
    length: row.size,
    uploadDate: isoDate(row.uploadedAt),
    metadata: {
      owner: row.ownerId,
      parent: shared?.rootId === row.id ? '/' : (row.folderId ?? '/'),
      size: row.size,
      contentType: row.contentType,
      hasThumbnail: row.thumbnailId !== null,
      thumbnailID: row.thumbnailId ?? '',
      isVideo: row.mediaKind === 'video',
      // A file's public or one-time link stays its owner's to hand out.
      ...(row.linkType && !shared ? { linkType: row.linkType, link: row.linkToken ?? undefined } : {}),
      trashed: row.trashedAt !== null,
    },
  };
  if (shared) dto.shared = shared;
  return dto;
}

/**
 * `JSON.stringify(rows.map(presentFile))`, byte for byte, without the objects in between: a list
 * of files is the answer made most often, and building then serializing its DTOs, dates and all,
 * cost as much as reading its rows.
 */
export function presentFileListJson(rows: readonly ShownFile[]): string {
  let json = '[';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (i > 0) json += ',';
    json +=
      `{"_id":${stringJson(row.id)},"filename":${stringJson(row.filename)},"length":${numberJson(row.size)}` +
      `,"uploadDate":"${isoDate(row.uploadedAt)}","metadata":{"owner":${stringJson(row.ownerId)}` +
      `,"parent":${stringJson(row.folderId ?? '/')},"size":${numberJson(row.size)},"contentType":${stringJson(row.contentType)}` +
      `,"hasThumbnail":${row.thumbnailId !== null},"thumbnailID":${stringJson(row.thumbnailId ?? '')},"isVideo":${row.mediaKind === 'video'}`;
    if (row.linkType) {
      json += `,"linkType":${stringJson(row.linkType)}`;
      if (row.linkToken !== null && row.linkToken !== undefined) json += `,"link":${stringJson(row.linkToken)}`;
    }
    json += `,"trashed":${row.trashedAt !== null}}}`;
  }
  return json + ']';
}

/** What JSON.stringify escapes in a string: quotes, backslashes, control characters and (lone) surrogates. */
// eslint-disable-next-line no-control-regex
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON.stringify writes it; most names and every key need no escape, and the test is cheaper than the call. */
export function stringJson(s: string): string {
  return ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** A number as JSON.stringify writes it (null where JSON has no such number). */
function numberJson(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

const DAY_MS = 86_400_000;
/** 9999-12-31T23:59:59.999Z: past it (and before 1970) `toISOString` writes the year its own way. */
const LAST_FOUR_DIGIT_MS = 253_402_300_799_999;

/**
 * `new Date(ms).toISOString()` by arithmetic (the civil date of a day count, after Howard
 * Hinnant's `civil_from_days`): making 50 Date objects and asking each for its string was a third
 * of a list's serialization.
 */
export function isoDate(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > LAST_FOUR_DIGIT_MS) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}
