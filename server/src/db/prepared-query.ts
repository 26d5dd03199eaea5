import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.js';

/** Stands in for an argument while a prepared query is built; replaced by the value at each run. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query built and compiled to SQL once, for the hottest lookups (the session check of every
 * signed-in request): each run only binds its `arity` arguments. Building the query tree, running
 * the camel-case plugin over it and compiling it cost more than the indexed lookup itself. `build`
 * receives placeholders in place of the arguments and must use each only as a plain value (alone or
 * in a list for `in`).
 */
export function preparedQuery<A, R>(db: Db, arity: number, build: (args: A[]) => Compilable<R>): (args: A[]) => Promise<R[]> {
  const slots = Array.from({ length: arity }, (_, i) => new Slot(i)) as unknown as A[];
  const compiled: CompiledQuery<R> = build(slots).compile();
  const template = compiled.parameters;
  return async (args: A[]): Promise<R[]> => {
    if (args.length !== arity) throw new RangeError(`expected ${arity} arguments, got ${args.length}`);
    const parameters = template.map((p) => (p instanceof Slot ? args[p.index] : p));
    const { rows } = await db.executeQuery<R>({ ...compiled, parameters });
    return rows;
  };
}
