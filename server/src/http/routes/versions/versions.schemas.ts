import { id, type ContentAuthorDto, type FileVersionDto, type FileVersionListDto } from '@nimbus/common';
import { z } from 'zod';

const isoDate = z.string().describe('ISO 8601');

export const contentAuthorDto = z.object({
  account: z
    .object({ id: z.string(), email: z.string() })
    .nullable()
    .describe('Null for content stored before versions were kept, or by an account since deleted'),
  via: z.string().nullable().describe("The app password's name (WebDAV, rclone…); null from the web app and the API"),
}) satisfies z.ZodType<ContentAuthorDto>;

export const fileVersionDto = z.object({
  id: z.string(),
  size: z.number().describe('Bytes'),
  sha256: z.string(),
  contentType: z.string(),
  createdAt: isoDate.describe('When this content was stored: the version’s time'),
  replacedAt: isoDate.describe('When newer content replaced it'),
  author: contentAuthorDto,
}) satisfies z.ZodType<FileVersionDto>;

export const fileVersionListDto = z.object({
  current: z.object({ size: z.number(), sha256: z.string(), contentType: z.string(), createdAt: isoDate, author: contentAuthorDto }),
  versions: z.array(fileVersionDto).describe('Newest first'),
}) satisfies z.ZodType<FileVersionListDto>;

export const fileParams = z.object({ id });

export const versionDownloadQuery = z.object({
  inline: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v === 'true' || v === '1')
    .describe('Show images, video, audio and PDF in the browser; anything else stays an attachment'),
});
