import type { z } from 'zod';
import { InvalidError } from '../domain/errors.js';

/** Parses request input with a shared schema; failures become a 400 listing each problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new InvalidError(issues[0]?.message ?? 'Invalid request', issues);
}
