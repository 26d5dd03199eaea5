import type { CreateAccountResponse, CreatedInvitationDto, InvitationDto, InvitationPreviewDto, SignupMode } from '@nimbus/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from './client';
import { invitationKeys } from './query-keys';

const path = (id: string) => `/invitation-service/invitations/${encodeURIComponent(id)}`;

/** Invitations to create an account, and signing up with one. */
export const invitationsApi = {
  list: () => http.get<InvitationDto[]>('/invitation-service/invitations').then((r) => r.data),
  create: (email: string) => http.post<CreatedInvitationDto>('/invitation-service/invitations', { email }).then((r) => r.data),
  resend: (id: string) => http.post<CreatedInvitationDto>(`${path(id)}/resend`).then((r) => r.data),
  revoke: (id: string) => http.delete(path(id)).then(() => undefined),
  preview: (token: string) => http.get<InvitationPreviewDto>(`/invitation-service/public/${encodeURIComponent(token)}`).then((r) => r.data),
  signUp: (body: { email: string; password: string; invitation: string }) =>
    http.post<CreateAccountResponse>('/user-service/create', body).then((r) => r.data),
  signupMode: () => http.get<{ signup: SignupMode }>('/user-service/signup-mode').then((r) => r.data),
};

export function useInvitationsQuery(enabled = true) {
  return useQuery({ queryKey: invitationKeys.list(), queryFn: invitationsApi.list, retry: false, enabled });
}

export function useInvitationPreviewQuery(token: string) {
  return useQuery({ queryKey: invitationKeys.preview(token), queryFn: () => invitationsApi.preview(token), retry: false });
}

function useInvitationMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }) });
}

export const useCreateInvitation = () => useInvitationMutation(invitationsApi.create);
export const useResendInvitation = () => useInvitationMutation(invitationsApi.resend);
export const useRevokeInvitation = () => useInvitationMutation(invitationsApi.revoke);
