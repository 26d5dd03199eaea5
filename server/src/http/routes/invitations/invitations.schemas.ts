import type { CreatedInvitationDto, InvitationDto, InvitationPreviewDto } from '@nimbus/common';
import { z } from 'zod';

// The answers of the invitation routes, described for the API reference (checked against the DTOs by `satisfies`).

const isoDate = z.string().describe('ISO 8601');

export const invitationDto = z.object({
  id: z.string(),
  email: z.string(),
  invitedBy: z.string().nullable().describe('The e-mail of the account that invited; null when that account is gone'),
  createdAt: isoDate,
  sentAt: isoDate.nullable().describe('When the mail last went out; null when the link was only handed back'),
  expiresAt: isoDate,
  status: z.enum(['pending', 'accepted', 'expired', 'revoked']),
}) satisfies z.ZodType<InvitationDto>;

export const createdInvitationDto = z.object({
  invitation: invitationDto,
  emailSent: z.boolean(),
  link: z.string().nullable().describe('`{APP_URL}/invite/{token}` when no mail carried it, to pass on by hand; else null'),
}) satisfies z.ZodType<CreatedInvitationDto>;

export const invitationPreviewDto = z.object({ email: z.string(), expiresAt: isoDate }) satisfies z.ZodType<InvitationPreviewDto>;
