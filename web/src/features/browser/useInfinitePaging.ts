import { useEffect, useRef, type RefObject } from 'react';

/** Share of the end sentinel that must be on screen before the next page is fetched. */
export const SENTINEL_THRESHOLD = 0.1;

/** How much of the sentinel is inside the scroll area now, or null without layout (the observer's word is all there is). */
function visibleShare(sentinel: HTMLElement, root: HTMLElement | null): number | null {
  const box = sentinel.getBoundingClientRect();
  if (box.height === 0) return null;
  const area = root ? root.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
  return Math.max(0, Math.min(box.bottom, area.bottom) - Math.max(box.top, area.top)) / box.height;
}

interface PagingOptions {
  sentinelRef: RefObject<HTMLElement | null>;
  rootRef: RefObject<HTMLElement | null>;
  hasNextPage: boolean;
  /** Any load of the list is running (the first page, a next page or a refresh). */
  isFetching: boolean;
  /** The last next-page load failed (it is tried again when the sentinel comes back into view). */
  hasFailed: boolean;
  fetchNextPage: () => Promise<unknown>;
  /** Pages loaded so far. */
  pageCount: number;
  /** Identifies the list (folder, search, sort order): a new list starts its paging afresh. */
  listKey: string;
}

/**
 * Fetches the next page when the sentinel at the end of the list is 10 % visible and the previous load
 * has finished; exactly one request per page, also while the sentinel stays in view.
 */
export function useInfinitePaging(options: PagingOptions) {
  const { sentinelRef, rootRef, hasNextPage, isFetching, hasFailed, fetchNextPage, pageCount, listKey } = options;
  const visible = useRef(false);
  /** The page count for which the next page was already asked for. */
  const requestedAt = useRef(-1);
  const latest = useRef({ hasNextPage, isFetching, hasFailed, fetchNextPage, pageCount });
  latest.current = { hasNextPage, isFetching, hasFailed, fetchNextPage, pageCount };
  const observer = useRef<IntersectionObserver | null>(null);

  const maybeFetch = useRef(() => {
    const state = latest.current;
    if (!state.hasNextPage || state.isFetching || requestedAt.current === state.pageCount || !sentinelRef.current) return;
    // The observer reports asynchronously; the list may have grown since its last word, so measure now.
    const share = visibleShare(sentinelRef.current, rootRef.current);
    if (!(share === null ? visible.current : share >= SENTINEL_THRESHOLD)) return;
    requestedAt.current = state.pageCount;
    void state.fetchNextPage();
  }).current;

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || typeof IntersectionObserver === 'undefined') return;
    observer.current = new IntersectionObserver(
      ([entry]) => {
        visible.current = !!entry && entry.isIntersecting && entry.intersectionRatio >= SENTINEL_THRESHOLD;
        // A failed page is tried again once the sentinel comes (back) into view.
        if (visible.current && latest.current.hasFailed && !latest.current.isFetching) requestedAt.current = -1;
        maybeFetch();
      },
      { root: rootRef.current, threshold: SENTINEL_THRESHOLD },
    );
    observer.current.observe(sentinel);
    return () => {
      observer.current?.disconnect();
      observer.current = null;
    };
  }, [sentinelRef, rootRef, maybeFetch]);

  useEffect(() => {
    requestedAt.current = -1;
  }, [listKey]);

  useEffect(() => {
    maybeFetch();
    // An observer reports changes only: if a page pushed the sentinel away and a scroll brought it back within
    // one frame, it would stay silent. Observing again makes it report where the sentinel is now.
    const sentinel = sentinelRef.current;
    if (!isFetching && sentinel && observer.current) {
      observer.current.unobserve(sentinel);
      observer.current.observe(sentinel);
    }
  }, [hasNextPage, isFetching, pageCount, maybeFetch, sentinelRef]);
}
