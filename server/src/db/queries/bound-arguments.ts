/**
 * Stands in for a value of a query while its SQL is compiled once per shape: building and compiling
 * the query tree cost as much as a third of reading a page. `of` gives the value at each run.
 */
export class QueryArgument<Q> {
  constructor(readonly of: (q: Q) => unknown) {}
}

/** The parameters of a query compiled with stand-ins, each replaced by its value for `q`. */
export function bindArguments<Q>(parameters: readonly unknown[], q: Q): unknown[] {
  return parameters.map((p) => (p instanceof QueryArgument ? (p as QueryArgument<Q>).of(q) : p));
}
