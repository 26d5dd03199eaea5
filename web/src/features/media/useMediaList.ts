import { LIMITS, type MediaFilter, type SortOrder } from '@nimbus/common';
import { useInfiniteQuery } from '@tanstack/react-query';
import { cursorAfter, listMedia, type ListCursor } from '../../api/media.api';
import { fileKeys } from '../../api/query-keys';

/** Photos and videos, 100 a page; a next page exists only while no loaded page is shorter than that. */
export function useMediaList(mediaFilter: MediaFilter, sortBy: SortOrder, search: string) {
  const params = { mediaFilter, sortBy, search };
  return useInfiniteQuery({
    queryKey: fileKeys.list({ view: 'media', ...params }),
    queryFn: ({ pageParam }) => listMedia(params, pageParam),
    initialPageParam: undefined as ListCursor | undefined,
    getNextPageParam: (lastPage, pages) => {
      const last = lastPage.at(-1);
      if (!last || pages.some((page) => page.length < LIMITS.mediaPageSize)) return undefined;
      return cursorAfter(last);
    },
  });
}
