import type { StorageUsageDto } from '@nimbus/common';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { http } from './client';
import { storageKeys } from './query-keys';

/** How long a read of the storage use serves the quota check before uploads. */
export const STORAGE_STALE_MS = 15_000;

export const storageApi = {
  get: () => http.get<StorageUsageDto>('/user-service/storage').then((r) => r.data),
};

export function useStorageQuery() {
  return useQuery({ queryKey: storageKeys.all, queryFn: storageApi.get, retry: false });
}

/** The storage use, from the cache when it is younger than `staleTime`. */
export function fetchStorage(queryClient: QueryClient, staleTime = STORAGE_STALE_MS): Promise<StorageUsageDto> {
  return queryClient.fetchQuery({ queryKey: storageKeys.all, queryFn: storageApi.get, staleTime, retry: false });
}
