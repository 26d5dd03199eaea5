import type { SessionDto } from '@nimbus/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from './client';

export const sessionKeys = {
  all: ['sessions'] as const,
};

/** The account's sessions in force (Settings → Devices), each of which can be signed out alone. */
export const sessionsApi = {
  list: () => http.get<SessionDto[]>('/user-service/sessions').then((r) => r.data),
  signOut: (id: string) => http.delete(`/user-service/sessions/${encodeURIComponent(id)}`).then(() => undefined),
};

export function useSessionsQuery() {
  return useQuery({ queryKey: sessionKeys.all, queryFn: sessionsApi.list, retry: false });
}

export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sessionsApi.signOut,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
