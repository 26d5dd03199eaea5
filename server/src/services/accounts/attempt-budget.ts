import type { LoginThrottleRepository, ThrottlePolicy } from '../../db/repositories/login-throttle.repository.js';
import { TooManyError } from '../../domain/errors.js';

/** A throttle key and the policy it is counted under. */
export type Limited = readonly [key: string, policy: ThrottlePolicy];

/**
 * Reserves an attempt under each key in turn, before the attempt is checked; the first key over
 * its limit refuses the request, and the attempts already reserved for it are given back, so a
 * refused request uses up no shared budget (hammering one pair never locks a key for everyone).
 */
export async function reserveAttempts(
  throttle: LoginThrottleRepository,
  keys: Limited[],
  now: number,
  refusal: { code: 'LOGIN_THROTTLED' | 'RATE_LIMITED'; message: string },
): Promise<void> {
  const reserved: Limited[] = [];
  for (const limited of keys) {
    const [key, policy] = limited;
    const { attempts, lockedUntil } = await throttle.reserve(key, now, policy);
    if (attempts > policy.maxFailures) {
      for (const [k, p] of reserved) await throttle.release(k, p);
      const until = lockedUntil && lockedUntil > now ? lockedUntil : now + policy.lockMs;
      throw new TooManyError(refusal.code, refusal.message, Math.ceil((until - now) / 1000));
    }
    reserved.push(limited);
  }
}
