import type { FileDto } from '@nimbus/common';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { listContaining, previewSiblings } from './preview-siblings';

/** The previous and next previewable files of the list on screen, kept current as that list pages in. */
export function usePreviewSiblings(fileId: string): { previous: FileDto | null; next: FileDto | null } {
  const queryClient = useQueryClient();
  const compute = useCallback(() => previewSiblings(listContaining(queryClient, fileId), fileId), [queryClient, fileId]);
  const subscribe = useCallback((onChange: () => void) => queryClient.getQueryCache().subscribe(onChange), [queryClient]);
  const snapshot = useCallback(() => {
    const { previous, next } = compute();
    return `${previous?._id ?? ''}|${next?._id ?? ''}`;
  }, [compute]);
  const key = useSyncExternalStore(subscribe, snapshot, snapshot);
  // The objects are recomputed only when the neighbours change.
  return useMemo(() => compute(), [compute, key]);
}
