import { useQuery } from '@tanstack/react-query';
import { userKeys } from './query-keys';
import { userApi } from './user.api';

export function useUserDetailedQuery() {
  return useQuery({ queryKey: userKeys.detailed(), queryFn: userApi.getUserDetailed, retry: false });
}
