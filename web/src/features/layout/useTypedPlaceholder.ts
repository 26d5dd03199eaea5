import { TIMINGS } from '@nimbus/common';
import { useEffect, useState } from 'react';

export const SEARCH_EXAMPLES = [
  'photo in a city',
  'pet',
  'job contract',
  "driver's license",
  "last month's invoice",
  'family vacation video',
];

/** Types each phrase one character at a time, pauses on the whole phrase, then starts the next one. */
export function useTypedPlaceholder(
  phrases: readonly string[] = SEARCH_EXAMPLES,
  charMs: number = TIMINGS.placeholderCharMs,
  pauseMs: number = TIMINGS.placeholderPauseMs,
): string {
  const [position, setPosition] = useState({ index: 0, length: 0 });
  const phrase = phrases[position.index % phrases.length] ?? '';

  useEffect(() => {
    const typing = position.length < phrase.length;
    const timer = setTimeout(
      () =>
        setPosition(({ index, length }) => (typing ? { index, length: length + 1 } : { index: (index + 1) % phrases.length, length: 0 })),
      typing ? charMs : pauseMs,
    );
    return () => clearTimeout(timer);
  }, [position, phrase, phrases.length, charMs, pauseMs]);

  return phrase.slice(0, position.length);
}
