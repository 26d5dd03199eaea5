import type { CreatedInvitationDto, InvitationDto, InvitationPreviewDto } from '@nimbus/common';
import {
  invitationStatusOf,
  type CreatedInvitation,
  type InvitationRow,
  type ListedInvitationRow,
} from '../../../services/accounts/invitation.service.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function presentInvitation(row: ListedInvitationRow, now: number): InvitationDto {
  return {
    id: row.id,
    email: row.email,
    invitedBy: row.inviterEmail,
    createdAt: iso(row.createdAt),
    sentAt: row.sentAt === null ? null : iso(row.sentAt),
    expiresAt: iso(row.expiresAt),
    status: invitationStatusOf(row, now),
  };
}

export function presentCreatedInvitation(created: CreatedInvitation, now: number): CreatedInvitationDto {
  return { invitation: presentInvitation(created.invitation, now), emailSent: created.emailSent, link: created.link };
}

export function presentInvitationPreview(row: InvitationRow): InvitationPreviewDto {
  return { email: row.email, expiresAt: iso(row.expiresAt) };
}
