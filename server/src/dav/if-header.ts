/** One condition of an If header list: a state token (lock token) or an entity tag, maybe negated. */
export interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}

/** A list of conditions, all of which must hold; `resource` is the tagged URL, or none for the request URL. */
export interface IfList {
  resource: string | null;
  conditions: IfCondition[];
}

export class IfHeaderError extends Error {}

/**
 * Parses an RFC 4918 §10.4 If header into its lists. Tagged lists keep their resource tag (an
 * absolute URL or a path); untagged lists apply to the request URL.
 */
export function parseIfHeader(header: string): IfList[] {
  const lists: IfList[] = [];
  let i = 0;
  let resource: string | null = null;
  const skipSpace = () => {
    while (i < header.length && /\s/.test(header[i]!)) i++;
  };
  const readUntil = (end: string): string => {
    const close = header.indexOf(end, i);
    if (close < 0) throw new IfHeaderError(`Unterminated ${end} in If header`);
    const value = header.slice(i, close);
    i = close + 1;
    return value;
  };
  skipSpace();
  if (i >= header.length) throw new IfHeaderError('Empty If header');
  while (i < header.length) {
    const c = header[i];
    if (c === '<') {
      i++;
      resource = readUntil('>');
    } else if (c === '(') {
      i++;
      const conditions: IfCondition[] = [];
      for (;;) {
        skipSpace();
        if (header[i] === ')') {
          i++;
          break;
        }
        let not = false;
        if (header.slice(i, i + 3).toLowerCase() === 'not') {
          not = true;
          i += 3;
          skipSpace();
        }
        if (header[i] === '<') {
          i++;
          conditions.push({ not, token: readUntil('>') });
        } else if (header[i] === '[') {
          i++;
          conditions.push({ not, etag: readUntil(']') });
        } else {
          throw new IfHeaderError('Malformed condition in If header');
        }
      }
      if (conditions.length === 0) throw new IfHeaderError('Empty list in If header');
      lists.push({ resource, conditions });
    } else {
      throw new IfHeaderError('Malformed If header');
    }
    skipSpace();
  }
  return lists;
}

/** Every state token named in the header: the lock tokens the request submits. */
export function submittedTokens(lists: IfList[]): Set<string> {
  const tokens = new Set<string>();
  for (const list of lists) for (const c of list.conditions) if (c.token !== undefined && !c.not) tokens.add(c.token);
  return tokens;
}
