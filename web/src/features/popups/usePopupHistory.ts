import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Marks the history entries this page load pushed for its popups (a reload starts over). */
const MARK = `popup-${Math.random().toString(36).slice(2)}`;

type Phase = 'idle' | 'pending' | 'active';

/**
 * While a popup is open, the page has one extra history entry: browser back pops it and closes the
 * popups, and closing them any other way pops it again, so back then leaves the page as usual.
 */
export function usePopupHistory(open: boolean, closeAll: () => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as Record<string, unknown> | null;
  const hasEntry = state?.nimbusPopup === MARK;
  const phase = useRef<Phase>('idle');
  const closeRef = useRef(closeAll);
  useEffect(() => {
    closeRef.current = closeAll;
  });

  useEffect(() => {
    if (open) {
      if (phase.current === 'idle' && !hasEntry) {
        phase.current = 'pending';
        void navigate(`${location.pathname}${location.search}${location.hash}`, { state: { ...state, nimbusPopup: MARK } });
      } else if (phase.current !== 'active' && hasEntry) {
        phase.current = 'active';
      } else if (phase.current === 'active' && !hasEntry) {
        phase.current = 'idle';
        closeRef.current();
      }
    } else if (phase.current !== 'idle' || hasEntry) {
      phase.current = 'idle';
      if (hasEntry) void navigate(-1);
    }
    // The location is read only to push an entry; only opening, closing and back matter here.
  }, [open, hasEntry]);
}
