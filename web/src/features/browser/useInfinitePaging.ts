import { useEffect, useRef, type RefObject } from 'react';

/** Share of the end sentinel that must be on screen before the next page is fetched (SPEC §4). */
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
  fetchNextPage: () => Promise<unknown>;
  /** Changes whenever a page arrives, so a sentinel still on screen asks for one more. */
  pageCount: number;
}

/**
 * Fetches the next page when the sentinel at the end of the list is 10 % visible and the previous load
 * has finished; exactly one request per page even when the sentinel stays in view.
 */
export function useInfinitePaging({ sentinelRef, rootRef, hasNextPage, isFetching, fetchNextPage, pageCount }: PagingOptions) {
  const visible = useRef(false);
  const inFlight = useRef(false);
  const latest = useRef({ hasNextPage, isFetching, fetchNextPage });
  latest.current = { hasNextPage, isFetching, fetchNextPage };

  const maybeFetch = useRef(() => {
    const { hasNextPage: more, isFetching: busy, fetchNextPage: fetchNext } = latest.current;
    if (!more || busy || inFlight.current || !sentinelRef.current) return;
    // The observer reports asynchronously; the list may have grown since its last word, so measure now.
    const share = visibleShare(sentinelRef.current, rootRef.current);
    if (!(share === null ? visible.current : share >= SENTINEL_THRESHOLD)) return;
    inFlight.current = true;
    void fetchNext().finally(() => {
      inFlight.current = false;
    });
  }).current;

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        visible.current = !!entry && entry.isIntersecting && entry.intersectionRatio >= SENTINEL_THRESHOLD;
        maybeFetch();
      },
      { root: rootRef.current, threshold: SENTINEL_THRESHOLD },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [sentinelRef, rootRef, maybeFetch]);

  useEffect(maybeFetch, [hasNextPage, isFetching, pageCount, maybeFetch]);
}
