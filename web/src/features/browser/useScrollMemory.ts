import { useEffect, useRef, type RefObject } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { addNavigationMap, removeNavigationMap } from '../../state/selection.slice';

/** Navigation state that asks the next page to restore its saved scroll position (e.g. "back" in the breadcrumb bar). */
export const RESTORE_SCROLL = { restoreScroll: true } as const;

/** How long a restore keeps trying while the list lays out (a slow phone, or a busy machine, needs more than a few frames). */
const RESTORE_WINDOW_MS = 3000;

/**
 * Keeps the scroll position of this URL in the navigation map when the page is left (a folder opens, or any
 * other navigation) and restores it when the user comes back (browser back/forward or the back arrow).
 */
export function useScrollMemory(scrollRef: RefObject<HTMLElement | null>, ready: boolean) {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const navigationType = useNavigationType();
  const url = location.pathname;
  const saved = useAppSelector((state) => state.selection.navigationMap[url]);
  const restore = useRef({
    scrollTop: saved?.scrollTop ?? 0,
    wanted: navigationType === 'POP' || (location.state as typeof RESTORE_SCROLL | null)?.restoreScroll === true,
    done: false,
    frame: 0,
  });
  const position = useRef(0);

  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const onScroll = () => {
      position.current = scroller.scrollTop;
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(restore.current.frame);
      dispatch(addNavigationMap({ url, scrollTop: position.current }));
    };
  }, [scrollRef, url, dispatch]);

  useEffect(() => {
    const state = restore.current;
    if (!ready || state.done) return;
    state.done = true;
    if (!state.wanted || state.scrollTop <= 0) return;
    dispatch(removeNavigationMap(url));
    const deadline = performance.now() + RESTORE_WINDOW_MS;
    // Once the person scrolls, the position is theirs: the restore stops trying.
    const scroller = scrollRef.current;
    let userScrolled = false;
    const userMoved = () => {
      userScrolled = true;
    };
    const intents = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
    for (const intent of intents) scroller?.addEventListener(intent, userMoved, { passive: true, once: true });
    const stop = () => {
      for (const intent of intents) scroller?.removeEventListener(intent, userMoved);
    };
    // The lists lay out over a few frames (measured widths, windowed rows): try until the position is reachable.
    const apply = () => {
      const target = scrollRef.current;
      if (!target || userScrolled) return stop();
      target.scrollTop = state.scrollTop;
      position.current = target.scrollTop;
      if (Math.abs(target.scrollTop - state.scrollTop) > 1 && performance.now() < deadline) state.frame = requestAnimationFrame(apply);
      else stop();
    };
    apply();
  }, [ready, url, scrollRef, dispatch]);
}
