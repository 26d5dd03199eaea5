import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_EXAMPLES, useTypedPlaceholder } from './useTypedPlaceholder';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
/** Each timer is set after React renders the previous step, so time moves on one step at a time. */
const steps = (count: number, ms: number) => {
  for (let i = 0; i < count; i++) advance(ms);
};

describe('useTypedPlaceholder', () => {
  it('cycles through the example phrases', () => {
    expect(SEARCH_EXAMPLES).toEqual([
      'photo in a city',
      'pet',
      'job contract',
      "driver's license",
      "last month's invoice",
      'family vacation video',
    ]);
  });

  it('types 60 ms per character, pauses 2 s on the phrase, then types the next one', () => {
    const { result } = renderHook(() => useTypedPlaceholder());
    expect(result.current).toBe('');
    advance(59);
    expect(result.current).toBe('');
    advance(1);
    expect(result.current).toBe('p');
    steps(14, 60);
    expect(result.current).toBe('photo in a city');
    advance(1999);
    expect(result.current).toBe('photo in a city');
    advance(1);
    expect(result.current).toBe('');
    steps(3, 60);
    expect(result.current).toBe('pet');
  });

  it('starts over after the last phrase', () => {
    const { result } = renderHook(() => useTypedPlaceholder(['ab', 'c'], 10, 100));
    steps(2, 10);
    expect(result.current).toBe('ab');
    steps(1, 100);
    steps(1, 10);
    expect(result.current).toBe('c');
    steps(1, 100);
    steps(1, 10);
    expect(result.current).toBe('a');
  });
});
