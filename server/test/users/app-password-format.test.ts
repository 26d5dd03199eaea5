import { describe, expect, it } from 'vitest';
import { newAppPassword } from '../../src/services/accounts/app-password.service.js';

describe('newAppPassword', () => {
  it('gives 24 URL-safe characters that never start with "-", which a command line would take for an option', () => {
    // One draw in 64 of 18 random bytes starts with "-": 5,000 draws would miss that once in 10^34.
    const drawn = Array.from({ length: 5000 }, () => newAppPassword());
    for (const password of drawn) expect(password).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{23}$/);
    expect(new Set(drawn).size).toBe(drawn.length);
    expect(drawn.some((password) => password.includes('-'))).toBe(true);
  });
});
