import type { MediaFilter } from '@nimbus/common';
import { useEffect, useRef } from 'react';
import { PhotoIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { isSortAscending, isSortByName, setMediaFilter, setSortBy, sortByOf } from '../../state/filter.slice';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { ItemMenuExtras } from '../context-menu/item-menu-extras';
import { liveMenuEntries } from './live-motion';
import { MediaItem } from './MediaItem';
import { MediaToolbar } from './MediaToolbar';
import { useMediaList } from './useMediaList';

const HEADINGS: Record<MediaFilter, string> = { all: 'Photos and Videos', photos: 'Photos', videos: 'Videos' };

/** Calls `onVisible` when the sentinel at the end of the list is 10% visible (checked again whenever `count` changes). */
function useEndSentinel(onVisible: () => void, count: number) {
  const sentinel = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  });
  useEffect(() => {
    const element = sentinel.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && callback.current(), { threshold: 0.1 });
    observer.observe(element);
    return () => observer.disconnect();
  }, [count]);
  return sentinel;
}

/** The media gallery (/media and /search-media/{query}): a dense grid of photos and videos. */
export function MediaPage({ search = '' }: { search?: string }) {
  const dispatch = useAppDispatch();
  const mediaFilter = useAppSelector((state) => state.filter.mediaFilter);
  const sortBy = useAppSelector((state) => state.filter.sortBy);
  const ascending = isSortAscending(sortBy);
  const list = useMediaList(mediaFilter, sortBy, search);
  const files = list.data?.pages.flat() ?? [];
  const sentinel = useEndSentinel(() => {
    if (list.hasNextPage && !list.isFetchingNextPage && !list.isFetching) void list.fetchNextPage();
  }, files.length);

  return (
    <section className="flex min-h-full flex-col p-3 sm:p-6" data-testid="media-page">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-normal text-ink">{HEADINGS[mediaFilter]}</h1>
          {search && <p className="truncate text-sm text-muted">Results for “{search}”</p>}
        </div>
        <MediaToolbar
          filter={mediaFilter}
          ascending={ascending}
          onFilter={(filter) => dispatch(setMediaFilter(filter))}
          onToggleOrder={() => dispatch(setSortBy(sortByOf(isSortByName(sortBy), !ascending)))}
        />
      </div>
      {list.isPending ? (
        <div className="flex flex-1 items-center justify-center py-16">
          <Spinner className="size-10" />
        </div>
      ) : list.isError ? (
        <p role="alert" className="py-16 text-center text-sm text-red-600">
          Error loading media
        </p>
      ) : files.length === 0 ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-3 py-16 text-center">
          <PhotoIcon className="size-14 text-gray-300" />
          <p className="text-base text-muted">{search ? 'No Results' : `No ${HEADINGS[mediaFilter]}`}</p>
        </div>
      ) : (
        <div
          className="grid grid-cols-[repeat(auto-fill,minmax(104px,1fr))] gap-1 sm:grid-cols-[repeat(auto-fill,minmax(140px,1fr))]"
          data-testid="media-grid"
        >
          <ItemMenuExtras entries={liveMenuEntries}>
            {files.map((file) => (
              <MediaItem key={file._id} file={file} />
            ))}
          </ItemMenuExtras>
        </div>
      )}
      <div ref={sentinel} className="h-4 w-full" data-testid="media-sentinel" />
      {list.isFetchingNextPage && (
        <div className="flex justify-center py-4">
          <Spinner className="size-8" />
        </div>
      )}
    </section>
  );
}
