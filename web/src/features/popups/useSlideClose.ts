import { TIMINGS } from '@nimbus/common';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Closing with the 200 ms slide-out every popup has: `closing` turns on, then `onClosed` runs. */
export function useSlideClose(onClosed: () => void) {
  const [closing, setClosing] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const closedRef = useRef(onClosed);
  useEffect(() => {
    closedRef.current = onClosed;
  });
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const close = useCallback(() => {
    if (timer.current) return;
    setClosing(true);
    timer.current = setTimeout(() => closedRef.current(), TIMINGS.popupCloseMs);
  }, []);
  return { closing, close };
}

/** Classes for a panel that slides down and fades while closing. */
export const slideClasses = (closing: boolean) =>
  `transition-[opacity,translate] duration-200 ease-in ${closing ? 'translate-y-8 opacity-0' : 'translate-y-0 opacity-100'}`;
