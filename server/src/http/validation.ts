import type { z } from 'zod';
import { InvalidError } from '../domain/errors.js';

/** Parses request input with a shared schema; failures become a 400 listing each problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new InvalidError(issues[0]?.message ?? 'Invalid request', issues);
  }
  const nulAt = findNul(result.data, []);
  // PostgreSQL text cannot hold NUL, so such input would fail deep in a query as a 500.
  if (nulAt) throw new InvalidError('Text must not contain NUL characters', [{ path: nulAt.join('.'), message: 'contains NUL' }]);
  return result.data;
}

function findNul(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNul(item, [...path, i]);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findNul(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
