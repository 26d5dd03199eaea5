/** Positional arguments and known flags; anything else is a usage error. */
export interface ParsedArgs {
  positional: string[];
  flags: Set<string>;
  values: Map<string, string>;
}

export class UsageError extends Error {}

export function parseArgs(args: string[], known: { flags: string[]; values: string[] }): ParsedArgs {
  const parsed: ParsedArgs = { positional: [], flags: new Set(), values: new Map() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) {
      parsed.positional.push(arg);
      continue;
    }
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (known.flags.includes(name) && inline === undefined) parsed.flags.add(name);
    else if (known.values.includes(name)) {
      const value = inline ?? args[++i];
      if (!value) throw new UsageError(`${name} needs a value`);
      parsed.values.set(name, value);
    } else throw new UsageError(`Unknown option ${arg}`);
  }
  return parsed;
}
