import type { ItemShareDto, SharedWithMeDto } from '@nimbus/common';
import { z } from 'zod';
import { fileDto, folderDto } from '../../api-schemas.js';

const isoDate = z.string().describe('ISO 8601');
const account = z.object({ id: z.string(), email: z.string() });
const role = z.enum(['viewer', 'editor']);
const itemType = z.enum(['file', 'folder']);

export const itemShareDto = z.object({
  id: z.string(),
  itemType,
  itemId: z.string(),
  recipient: account,
  role,
  createdAt: isoDate,
}) satisfies z.ZodType<ItemShareDto>;

export const sharedWithMeDto = z.object({
  shareId: z.string(),
  role,
  owner: account,
  sharedAt: isoDate,
  itemType,
  file: fileDto.optional(),
  folder: folderDto.optional(),
}) satisfies z.ZodType<SharedWithMeDto>;
