import { vi } from 'vitest';

/**
 * Fake timers that still follow real time (so Testing Library's polling keeps working), for tests
 * that must let a delay pass or show that nothing more happens: `elapse` jumps instead of sleeping.
 */
export function useFakeClock(): void {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

export async function elapse(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}
