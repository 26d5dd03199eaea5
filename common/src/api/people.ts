import { z } from 'zod';
import type { FileDto } from './files.js';
import { id } from './shared.js';

/**
 * People in photos (`/people-service/...`): faces found in an account's photos, grouped into
 * people the account names, merges and hides. Only the account's own photos and faces; share
 * links and other accounts never see them.
 */

/** `GET|PUT /people-service/settings`. */
export interface PeopleSettingsDto {
  enabled: boolean;
  /** Photos whose faces were looked for (with or without faces found). */
  scannedPhotos: number;
  /** Photos still waiting for their face scan. */
  pendingPhotos: number;
}

export const peopleSettingsRequest = z.object({ enabled: z.boolean() });
export type PeopleSettingsRequest = z.infer<typeof peopleSettingsRequest>;

export interface PersonDto {
  id: string;
  name: string | null;
  hidden: boolean;
  faceCount: number;
  photoCount: number;
  /** The face shown for the person (`/people-service/faces/:id/crop`); null when none is left. */
  coverFaceId: string | null;
  /** Milliseconds since the epoch. */
  updatedAt: number;
}

/** Fractions (0..1) of the upright picture. */
export interface FaceBoxDto {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FaceDto {
  id: string;
  fileId: string;
  personId: string | null;
  personName: string | null;
  box: FaceBoxDto;
  /** The detector's confidence, 0..1. */
  score: number;
}

export interface PersonListDto {
  people: PersonDto[];
}

export interface FaceListDto {
  faces: FaceDto[];
}

export interface PersonFilesDto {
  files: FileDto[];
  nextCursor: string | null;
}

export const PERSON_NAME_MAX = 100;
/** Control characters (C0, DEL, C1) and line or paragraph separators never belong in a name. */
// eslint-disable-next-line no-control-regex
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

/** A person's name: trimmed, 1–100 characters, no control characters; null clears it. */
export const personName = z
  .string()
  .max(4 * PERSON_NAME_MAX)
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1)
      .refine((s) => [...s].length <= PERSON_NAME_MAX, `At most ${PERSON_NAME_MAX} characters`)
      .refine((s) => !NAME_FORBIDDEN.test(s), 'No control characters'),
  )
  .nullable();

export const personUpdateRequest = z
  .object({ name: personName.optional(), hidden: z.boolean().optional() })
  .refine((b) => b.name !== undefined || b.hidden !== undefined, 'Give a name or hidden');
export type PersonUpdateRequest = z.infer<typeof personUpdateRequest>;

export const personMergeRequest = z.object({ personId: id });
export type PersonMergeRequest = z.infer<typeof personMergeRequest>;

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const personListQuery = z.object({
  hidden: flag.optional().describe('true: the hidden people instead of the visible ones'),
});

export const PERSON_FILES_MAX = 100;
export const personFilesQuery = z.object({
  cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(PERSON_FILES_MAX).default(50),
});
