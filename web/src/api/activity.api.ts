import { ACTIVITY_LIMITS, type ActivityPageDto } from '@nimbus/common';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from './client';
import { activityKeys } from './query-keys';

/** The signed-in account's security log, newest first. */
export const activityApi = {
  page: (cursor: string | null) =>
    http
      .get<ActivityPageDto>('/user-service/activity', {
        params: { limit: ACTIVITY_LIMITS.defaultPageSize, ...(cursor ? { cursor } : {}) },
      })
      .then((r) => r.data),
};

export function useActivityQuery() {
  return useInfiniteQuery({
    queryKey: activityKeys.all,
    queryFn: ({ pageParam }) => activityApi.page(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    retry: false,
  });
}
