import ipaddr from 'ipaddr.js';

/**
 * The unit a client address is counted under by every throttle: an IPv4 address as it is, and an
 * IPv6 address by its /64, since one subscriber routinely holds a whole /64 and could otherwise
 * spread guesses over 2^64 addresses. An IPv4-mapped IPv6 address (a dual-stack socket's view of
 * an IPv4 client) is that IPv4 address. Anything unparsable is kept as given.
 */
export function addressGroupOf(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return address;
  }
  if (!(parsed instanceof ipaddr.IPv6)) return parsed.toString();
  return `${new ipaddr.IPv6([...parsed.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
