import type { FaceDto, FaceListDto, PeopleSettingsDto, PersonDto, PersonFilesDto, PersonListDto } from '@nimbus/common';
import { id } from '@nimbus/common';
import { z } from 'zod';
import { fileDto } from '../../api-schemas.js';

const fraction = z.number().min(0).max(1);

export const peopleSettingsDto = z.object({
  enabled: z.boolean(),
  scannedPhotos: z.number().int().describe('Photos outside the trash whose faces were looked for'),
  pendingPhotos: z.number().int().describe('Photos outside the trash still waiting for their face scan'),
}) satisfies z.ZodType<PeopleSettingsDto>;

export const personDto = z.object({
  id: z.string(),
  name: z.string().nullable(),
  hidden: z.boolean(),
  faceCount: z.number().int().describe('Faces on photos outside the trash'),
  photoCount: z.number().int().describe('Photos outside the trash showing the person'),
  coverFaceId: z.string().nullable().describe('The face to show (`/people-service/faces/:faceId/crop`)'),
  updatedAt: z.number().describe('Milliseconds since the epoch'),
}) satisfies z.ZodType<PersonDto>;

export const faceDto = z.object({
  id: z.string(),
  fileId: z.string(),
  personId: z.string().nullable().describe('Null for a face removed from its person'),
  personName: z.string().nullable(),
  box: z.object({ x: fraction, y: fraction, width: fraction, height: fraction }).describe('Fractions of the upright picture'),
  score: z.number().describe("The detector's confidence, 0..1"),
}) satisfies z.ZodType<FaceDto>;

export const personListDto = z.object({ people: z.array(personDto).describe('Most photos first') }) satisfies z.ZodType<PersonListDto>;
export const faceListDto = z.object({ faces: z.array(faceDto) }) satisfies z.ZodType<FaceListDto>;
export const personFilesDto = z.object({
  files: z.array(fileDto).describe('Newest first, as the media gallery lists them'),
  nextCursor: z.string().nullable().describe('For the next page; null on the last'),
}) satisfies z.ZodType<PersonFilesDto>;

export const personParams = z.object({ personId: id });
export const personFaceParams = z.object({ personId: id, faceId: id });
export const faceParams = z.object({ faceId: id });
export const fileParams = z.object({ fileId: id });
