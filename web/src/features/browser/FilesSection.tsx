import type { FileDto } from '@nimbus/common';
import { useMemo, useRef, type RefObject } from 'react';
import { Spinner } from '../../components/Spinner';
import { useAppSelector } from '../../state/hooks';
import { useFileListQuery, type BrowseScope } from './drive.queries';
import { FileGrid } from './FileGrid';
import { useInfinitePaging } from './useInfinitePaging';
import { ViewToggle } from './ViewControls';

interface FilesSectionProps {
  title: string;
  scope: BrowseScope;
  scrollRef: RefObject<HTMLElement | null>;
  /** Show a "Shared" badge on files of other accounts (in search results). */
  markShared?: boolean;
}

/** The files of the page in a grid or a list, paged in as the end of the list comes into view. */
export function FilesSection({ title, scope, scrollRef, markShared = false }: FilesSectionProps) {
  const query = useFileListQuery(scope);
  const listView = useAppSelector((state) => state.general.listView);
  const sortBy = useAppSelector((state) => state.filter.sortBy);
  const files = useMemo<FileDto[]>(() => query.data?.pages.flat() ?? [], [query.data]);
  const sentinel = useRef<HTMLDivElement>(null);

  useInfinitePaging({
    sentinelRef: sentinel,
    rootRef: scrollRef,
    hasNextPage: query.hasNextPage,
    isFetching: query.isFetching,
    hasFailed: query.isFetchNextPageError,
    fetchNextPage: () => query.fetchNextPage({ cancelRefetch: false }),
    pageCount: query.data?.pages.length ?? 0,
    listKey: JSON.stringify([scope, sortBy]),
  });

  return (
    <section aria-label={title} className="mt-8" data-list-view={listView} data-file-count={files.length}>
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-base font-medium text-ink">{title}</h2>
        <ViewToggle />
      </div>
      {query.isPending ? (
        <div className="flex justify-center py-10">
          <Spinner label="Loading files" />
        </div>
      ) : files.length === 0 ? (
        <p className="py-6 text-sm text-muted">{query.isError ? 'Files could not be loaded' : 'No files'}</p>
      ) : (
        <FileGrid files={files} listView={listView} scrollRef={scrollRef} markShared={markShared} />
      )}
      <div ref={sentinel} data-testid="list-end" className="flex h-16 items-center justify-center">
        {query.isFetchingNextPage && <Spinner className="size-6" label="Loading more files" />}
      </div>
    </section>
  );
}
