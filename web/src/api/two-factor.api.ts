import type { LoginResponse, RecoveryCodesDto, TwoFactorSetupDto, TwoFactorStatusDto } from '@nimbus/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from './client';

const statusKey = ['two-factor', 'status'] as const;

/** Two-factor codes: Settings → Security, and the second step of a sign-in. */
export const twoFactorApi = {
  status: () => http.get<TwoFactorStatusDto>('/two-factor-service/status').then((r) => r.data),
  setup: () => http.post<TwoFactorSetupDto>('/two-factor-service/setup').then((r) => r.data),
  enable: (code: string) => http.post<RecoveryCodesDto>('/two-factor-service/enable', { code }).then((r) => r.data.recoveryCodes),
  renewRecoveryCodes: (code: string) =>
    http.post<RecoveryCodesDto>('/two-factor-service/recovery-codes', { code }).then((r) => r.data.recoveryCodes),
  disable: (code: string) => http.post('/two-factor-service/disable', { code }).then(() => undefined),
  secondStep: (body: { ticket: string; code: string } | { ticket: string; recoveryCode: string }) =>
    http.post<LoginResponse>('/user-service/login/second-factor', body).then((r) => r.data),
  setupWithTicket: (ticket: string) =>
    http.post<TwoFactorSetupDto>('/two-factor-service/setup-with-ticket', { ticket }).then((r) => r.data),
  enableWithTicket: (ticket: string, code: string) =>
    http.post<LoginResponse & RecoveryCodesDto>('/two-factor-service/enable-with-ticket', { ticket, code }).then((r) => r.data),
};

export function useTwoFactorStatus() {
  return useQuery({ queryKey: statusKey, queryFn: twoFactorApi.status, retry: false });
}

/** A change of the account's two-factor state; the status is fetched again after it. */
export function useTwoFactorChange<A, R>(fn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: statusKey }) });
}
