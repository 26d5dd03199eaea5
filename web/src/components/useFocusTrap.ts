import { createFocusTrap } from 'focus-trap';
import { useEffect, type RefObject } from 'react';

export interface FocusTrapOptions {
  /** What gets focus when the trap starts: the first focusable element inside, or the container. */
  initialFocus?: 'first' | 'container';
}

const FOCUSABLE =
  'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

/**
 * Keeps keyboard focus inside `ref` while mounted (Tab and Shift+Tab wrap around) and gives it back
 * to the element that had it when the trap started. Traps stack: a menu or dialog opened on top
 * pauses the one below until it closes. Escape and outside clicks are left to the component.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, options: FocusTrapOptions = {}): void {
  const initial = options.initialFocus ?? 'first';
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const trap = createFocusTrap(container, {
      initialFocus: () => (initial === 'first' ? (container.querySelector<HTMLElement>(FOCUSABLE) ?? container) : container),
      fallbackFocus: container,
      delayInitialFocus: false,
      escapeDeactivates: false,
      clickOutsideDeactivates: false,
      allowOutsideClick: true,
      returnFocusOnDeactivate: true,
      // Give focus back only if it has nowhere better to be: a click that closed a menu by focusing
      // something else (the search bar, a field) keeps that focus.
      setReturnFocus: (previous) => {
        const now = document.activeElement;
        return !now || now === document.body || container.contains(now) ? previous : false;
      },
      preventScroll: true,
      // Layout-free: hidden-ness is not judged by size, so it behaves the same in every renderer.
      tabbableOptions: { displayCheck: 'none' },
    });
    trap.activate();
    return () => {
      trap.deactivate();
    };
  }, [ref, initial]);
}
