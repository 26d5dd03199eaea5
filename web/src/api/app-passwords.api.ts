import type { AppPasswordDto, CreatedAppPasswordDto } from '@nimbus/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from './client';
import { appPasswordKeys } from './query-keys';

/** Passwords for one device or app each: the only credentials WebDAV accepts. */
export const appPasswordsApi = {
  list: () => http.get<AppPasswordDto[]>('/user-service/app-passwords').then((r) => r.data),
  create: (name: string) => http.post<CreatedAppPasswordDto>('/user-service/app-passwords', { name }).then((r) => r.data),
  revoke: (id: string) => http.delete(`/user-service/app-passwords/${encodeURIComponent(id)}`).then(() => undefined),
};

export function useAppPasswordsQuery() {
  return useQuery({ queryKey: appPasswordKeys.all, queryFn: appPasswordsApi.list, retry: false });
}

export function useCreateAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: appPasswordsApi.create,
    onSettled: () => queryClient.invalidateQueries({ queryKey: appPasswordKeys.all }),
  });
}

export function useRevokeAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: appPasswordsApi.revoke,
    onSettled: () => queryClient.invalidateQueries({ queryKey: appPasswordKeys.all }),
  });
}

/** The WebDAV address of this server, as clients are given it. */
export function webDavUrl(): string {
  return `${window.location.origin}/dav/`;
}
