import { useQuery } from '@tanstack/react-query';
import { signInOptionsApi, signInOptionsKeys } from './sign-in-options.api';

/** The server's single sign-on settings; they change only with its configuration, so they are fetched once. */
export function useSignInOptions() {
  return useQuery({ queryKey: signInOptionsKeys.all, queryFn: signInOptionsApi.get, staleTime: Infinity, retry: false });
}
