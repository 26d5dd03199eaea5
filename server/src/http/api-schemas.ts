import {
  ACCOUNT_ROLES,
  SECOND_FACTOR_METHODS,
  SECURITY_EVENT_TYPES,
  SHARE_LINK_KINDS,
  type ActivityPageDto,
  type AppPasswordDto,
  type CreatedAppPasswordDto,
  type FileDto,
  type FolderDto,
  type SecondFactorChallengeDto,
  type PublicFileDto,
  type SharedFileDto,
  type SharedFolderDto,
  type SharedLinkInfoDto,
  type SharedListingDto,
  type ShareLinkDto,
  type UserDetailedDto,
  type UserDto,
} from '@nimbus/common';
import type { FastifySchema } from 'fastify';
import { z } from 'zod';

/*
 * The answers of the API, described for its reference. The DTOs are TypeScript types shared with
 * the web app; each description here must produce its type (checked by `satisfies`), so the two
 * cannot drift apart. Nothing validates answers against these.
 */

const isoDate = z.string().describe('ISO 8601');
const linkType = z.enum(['public', 'one']);

/** On items reached through a share only (see `/item-share-service`). */
export const sharedAccessDto = z
  .object({
    role: z.enum(['viewer', 'editor']),
    owner: z.object({ id: z.string(), email: z.string() }),
    rootId: z.string().describe('The shared file or folder the access comes from'),
    rootType: z.enum(['file', 'folder']),
  })
  .optional();

export const fileDto = z.object({
  _id: z.string(),
  filename: z.string(),
  length: z.number().describe('Bytes'),
  uploadDate: isoDate,
  metadata: z.object({
    owner: z.string(),
    parent: z.string().describe("'/' at the root, else a folder id"),
    size: z.number(),
    contentType: z.string(),
    hasThumbnail: z.boolean(),
    thumbnailID: z.string(),
    isVideo: z.boolean(),
    linkType: linkType.optional(),
    link: z.string().optional().describe('Token of the public URL, when shared'),
    trashed: z.boolean(),
    livePhoto: z
      .object({ videoId: z.string() })
      .optional()
      .describe('Media listings: the still of a Live Photo; its MOV streams at `/file-service/stream-video/{videoId}`'),
    motion: z.object({ url: z.string() }).optional().describe('Media listings: a motion photo; its clip streams at `url`'),
  }),
  shared: sharedAccessDto,
}) satisfies z.ZodType<FileDto>;

export const folderDto = z.object({
  _id: z.string(),
  name: z.string(),
  parent: z.string().describe("'/' at the root, else a folder id"),
  owner: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
  trashed: z.boolean(),
  shared: sharedAccessDto,
}) satisfies z.ZodType<FolderDto>;

export const linkedFileDto = fileDto.extend({ file: fileDto, token: z.string() });

export const publicFileDto = z.object({
  _id: z.string(),
  filename: z.string(),
  length: z.number(),
  uploadDate: isoDate,
  metadata: z.object({ linkType, size: z.number() }),
}) satisfies z.ZodType<PublicFileDto>;

export const userDto = z.object({
  _id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  role: z.enum(ACCOUNT_ROLES).optional().describe('`admin` opens the admin area'),
}) satisfies z.ZodType<UserDto>;
export const userDetailedDto = userDto.extend({
  createdAt: isoDate,
  hasPassword: z.boolean().optional().describe('False for an account made by single sign-on that has not set a password'),
}) satisfies z.ZodType<UserDetailedDto>;

export const appPasswordDto = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoDate,
  lastUsedAt: isoDate.nullable(),
}) satisfies z.ZodType<AppPasswordDto>;

export const createdAppPasswordDto = z.object({
  id: z.string(),
  name: z.string(),
  password: z.string().describe('The secret, shown this once'),
  createdAt: isoDate,
}) satisfies z.ZodType<CreatedAppPasswordDto>;

export const activityPageDto = z.object({
  events: z.array(
    z.object({
      id: z.string(),
      type: z.enum(SECURITY_EVENT_TYPES),
      at: isoDate,
      clientAddress: z.string().nullable(),
      userAgent: z.string().nullable(),
      details: z
        .object({
          name: z.string().optional(),
          itemType: z.enum(['file', 'folder']).optional(),
          kind: z.string().optional(),
          recipient: z.string().optional(),
        })
        .nullable(),
    }),
  ),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last page'),
}) satisfies z.ZodType<ActivityPageDto>;

export const shareLinkDto = z.object({
  id: z.string(),
  kind: z.enum(SHARE_LINK_KINDS),
  itemType: z.enum(['file', 'folder']),
  itemId: z.string(),
  itemName: z.string(),
  token: z.string().describe('The secret part of the public address `/s/{token}`'),
  hasPassword: z.boolean(),
  expiresAt: isoDate.nullable(),
  maxDownloads: z.number().nullable(),
  downloads: z.number(),
  allowDownload: z.boolean(),
  maxFileBytes: z.number().nullable(),
  maxFiles: z.number().nullable(),
  filesReceived: z.number(),
  createdAt: isoDate,
  lastAccessAt: isoDate.nullable(),
  active: z.boolean(),
}) satisfies z.ZodType<ShareLinkDto>;

const sharedFileDto = z.object({
  id: z.string(),
  filename: z.string(),
  size: z.number(),
  contentType: z.string(),
  uploadDate: isoDate,
  hasThumbnail: z.boolean(),
  isVideo: z.boolean(),
  isImage: z.boolean(),
}) satisfies z.ZodType<SharedFileDto>;
const sharedFolderDto = z.object({ id: z.string(), name: z.string() }) satisfies z.ZodType<SharedFolderDto>;

export const sharedLinkInfoDto = z.object({
  kind: z.enum(SHARE_LINK_KINDS),
  itemType: z.enum(['file', 'folder']),
  passwordRequired: z.boolean(),
  name: z.string().optional(),
  allowDownload: z.boolean().optional(),
  expiresAt: isoDate.nullable().optional(),
  file: sharedFileDto.optional(),
  folder: sharedFolderDto.optional(),
  drop: z.object({ maxFileBytes: z.number().nullable(), maxFiles: z.number().nullable(), filesLeft: z.number().nullable() }).optional(),
}) satisfies z.ZodType<SharedLinkInfoDto>;

export const sharedListingDto = z.object({
  folder: sharedFolderDto,
  path: z.array(sharedFolderDto),
  folders: z.array(sharedFolderDto),
  files: z.array(sharedFileDto),
  next: z.string().nullable(),
}) satisfies z.ZodType<SharedListingDto>;

/** A right password for an account with two-factor on: the second step's ticket (see `/user-service/login/second-factor`). */
export const secondFactorChallengeDto = z.object({
  secondFactor: z.object({
    ticket: z.string().describe('Five minutes, single-use, for this browser only'),
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  }),
}) satisfies z.ZodType<SecondFactorChallengeDto>;

/** The `{ message }` answer of calls that change something and return nothing else. */
export const messageAnswer = z.object({ message: z.string() });

/** An answer without a body. */
export const noContent = z.undefined().describe('No content');

/** A download: the bytes of a file or a zip, with Range support where noted. */
export function binaryAnswer(description: string, contentType = 'application/octet-stream') {
  return { description, content: { [contentType]: { schema: z.string().describe('binary') } } };
}

/** A route's schema when it needs a signed-in session (the access-token cookie). */
export function signedIn(schema: FastifySchema): FastifySchema {
  return { security: [{ session: [] }], ...schema, errors: ['UNAUTHENTICATED', ...(schema.errors ?? [])] };
}
