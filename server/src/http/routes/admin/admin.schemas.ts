import {
  ACCOUNT_ROLES,
  ACCOUNT_STATUSES,
  MODEL_STATES,
  SIGNUP_MODES,
  type AdminOverviewDto,
  type AdminPasswordResetDto,
  type AdminUserDto,
  type AdminUserPage,
  type ServerSettingsDto,
  type StorageUsageDto,
} from '@nimbus/common';
import { z } from 'zod';

/* The admin area's answers, described for the API reference (see api-schemas.ts). */

const isoDate = z.string().describe('ISO 8601');

export const adminUserDto = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ACCOUNT_ROLES),
  status: z.enum(ACCOUNT_STATUSES),
  createdAt: isoDate,
  lastActiveAt: isoDate.nullable(),
  usedBytes: z.number().describe('Bytes of its files, trash included'),
  files: z.number(),
  quotaBytes: z.number().nullable().describe("The quota in force (its own, else the server's default); null for none"),
  customQuota: z.boolean(),
  twoFactor: z.boolean(),
}) satisfies z.ZodType<AdminUserDto>;

export const adminUserPage = z.object({
  users: z.array(adminUserDto),
  total: z.number(),
  offset: z.number(),
  limit: z.number(),
}) satisfies z.ZodType<AdminUserPage>;

export const serverSettingsDto = z.object({
  signup: z.enum(SIGNUP_MODES),
  defaultQuotaBytes: z.number().nullable(),
  trashRetentionDays: z.number(),
  usersMayInvite: z.boolean(),
  requireTwoFactor: z.boolean().optional().describe('Every account signs in with a second factor'),
}) satisfies z.ZodType<ServerSettingsDto>;

export const adminPasswordResetDto = z.object({
  emailSent: z.boolean(),
  link: z.string().nullable().describe('The reset link, when no e-mail could carry it'),
}) satisfies z.ZodType<AdminPasswordResetDto>;

export const adminOverviewDto = z.object({
  accounts: z.object({ total: z.number(), active: z.number(), disabled: z.number(), admins: z.number(), invitationsPending: z.number() }),
  files: z.number(),
  folders: z.number(),
  bytes: z.object({ files: z.number(), trash: z.number(), thumbnails: z.number(), versions: z.number(), renditions: z.number() }),
  disk: z.object({ freeBytes: z.number(), totalBytes: z.number() }).nullable(),
  jobs: z.object({ queued: z.number(), running: z.number(), failed: z.number() }),
  scrub: z.object({ phase: z.string(), updatedAt: isoDate }).nullable(),
  model: z.object({
    name: z.string().nullable(),
    state: z.enum(MODEL_STATES),
    bytesDone: z.number(),
    bytesTotal: z.number(),
    error: z.string().nullable(),
  }),
  version: z.string(),
}) satisfies z.ZodType<AdminOverviewDto>;

export const storageUsageDto = z.object({
  usedBytes: z.number(),
  quotaBytes: z.number().nullable(),
  bytes: z.object({ files: z.number(), trash: z.number(), versions: z.number() }),
}) satisfies z.ZodType<StorageUsageDto>;
