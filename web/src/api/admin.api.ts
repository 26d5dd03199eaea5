import type {
  AdminOverviewDto,
  AdminPasswordResetDto,
  AdminUserDto,
  AdminUserPage,
  AdminUsersQuery,
  ServerSettingsDto,
  UpdateAdminUserBody,
  UpdateServerSettingsBody,
} from '@nimbus/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from './client';
import { adminKeys } from './query-keys';

const userPath = (id: string) => `/admin-service/users/${encodeURIComponent(id)}`;

/** The admin area's calls: accounts, server settings and the overview. */
export const adminApi = {
  users: (query: Partial<AdminUsersQuery>) => http.get<AdminUserPage>('/admin-service/users', { params: { ...query } }).then((r) => r.data),
  updateUser: (id: string, body: UpdateAdminUserBody) => http.patch<AdminUserDto>(userPath(id), body).then((r) => r.data),
  deleteUser: (id: string, confirmEmail: string) => http.delete(userPath(id), { data: { confirmEmail } }).then(() => undefined),
  resetPassword: (id: string) => http.post<AdminPasswordResetDto>(`${userPath(id)}/password-reset`).then((r) => r.data),
  resetTwoFactor: (id: string) => http.post<AdminUserDto>(`${userPath(id)}/two-factor-reset`).then((r) => r.data),
  settings: () => http.get<ServerSettingsDto>('/admin-service/settings').then((r) => r.data),
  updateSettings: (body: UpdateServerSettingsBody) => http.patch<ServerSettingsDto>('/admin-service/settings', body).then((r) => r.data),
  overview: () => http.get<AdminOverviewDto>('/admin-service/overview').then((r) => r.data),
};

export function useAdminUsersQuery(query: Partial<AdminUsersQuery>) {
  return useQuery({
    queryKey: adminKeys.users(query),
    queryFn: () => adminApi.users(query),
    retry: false,
    placeholderData: (previous) => previous,
  });
}

export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateAdminUserBody }) => adminApi.updateUser(id, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useDeleteAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmEmail }: { id: string; confirmEmail: string }) => adminApi.deleteUser(id, confirmEmail),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useAdminPasswordReset() {
  return useMutation({ mutationFn: adminApi.resetPassword });
}

export function useAdminTwoFactorReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminApi.resetTwoFactor,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useServerSettingsQuery() {
  return useQuery({ queryKey: adminKeys.settings(), queryFn: adminApi.settings, retry: false });
}

export function useUpdateServerSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminApi.updateSettings,
    onSuccess: (settings) => queryClient.setQueryData(adminKeys.settings(), settings),
  });
}

export function useAdminOverviewQuery() {
  return useQuery({ queryKey: adminKeys.overview(), queryFn: adminApi.overview, retry: false });
}
