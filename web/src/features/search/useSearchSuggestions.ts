import { STORAGE_KEYS, TIMINGS } from '@nimbus/common';
import { useMutation, useQuery } from '@tanstack/react-query';
import { fileKeys } from '../../api/query-keys';
import { useAppSelector } from '../../state/hooks';
import { driveApi } from '../../api/drive.api';
import type { Section } from '../layout/sections';
import { searchApi } from './search.api';
import { useDebouncedValue } from './useDebouncedValue';

/** Name matches for the dropdown, 500 ms after typing stops; only for non-empty text. */
export function useSuggestions(text: string, section: Section, enabled: boolean) {
  const search = useDebouncedValue(text.trim(), TIMINGS.searchDebounceMs);
  const params = { search, trashMode: section === 'trash', mediaMode: section === 'media' };
  const query = useQuery({
    queryKey: fileKeys.suggested(params),
    queryFn: () => driveApi.suggested(params.search, params.trashMode, params.mediaMode),
    enabled: enabled && search !== '',
    staleTime: 10_000,
  });
  return { search, ...query };
}

function storedUserId(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.userId);
  } catch {
    return null;
  }
}

/** The AI (semantic) search: needs a signed-in user whose id is known, from the session or saved locally. */
export function useAiSearch() {
  const user = useAppSelector((state) => state.user);
  const userId = user.user?._id || storedUserId();
  const mutation = useMutation({
    mutationFn: (query: string) => searchApi.semantic(query, userId ?? ''),
  });
  return { available: user.loggedIn && !!userId, ...mutation };
}
