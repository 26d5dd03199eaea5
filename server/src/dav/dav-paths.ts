import { LIMITS } from '@nimbus/common';
import { sanitizeName } from '../domain/names.js';
import { DavError } from '../domain/dav-error.js';

export const DAV_PREFIX = '/dav';

/** A path in the owner's drive as WebDAV names, from the root; `[]` is the root. */
export type DavPath = string[];

/**
 * The WebDAV names of a request URL (`/dav/a/b%20c`), decoded and NFC-normalised (macOS sends
 * decomposed names). A segment that could never name a Nimbus item (`.` and `..`, an encoded
 * slash, control characters, more than 255 bytes) is refused rather than cleaned up, so a client
 * never writes one name and finds another.
 */
export function parseDavPath(rawUrl: string): DavPath {
  // A fragment never belongs in a request; acting on the URL without it could delete the wrong thing.
  if (rawUrl.includes('#')) throw new DavError(400, 'Request URLs may not contain a fragment');
  const path = rawUrl.split('?')[0]!;
  if (path !== DAV_PREFIX && !path.startsWith(`${DAV_PREFIX}/`)) throw new DavError(400, 'Not a WebDAV path');
  const segments: string[] = [];
  for (const raw of path.slice(DAV_PREFIX.length).split('/')) {
    if (raw === '') continue;
    let name: string;
    try {
      name = decodeURIComponent(raw).normalize('NFC');
    } catch {
      throw new DavError(400, 'Malformed percent-encoding in the path');
    }
    segments.push(checkName(name));
  }
  if (segments.length > LIMITS.folderDepthMax + 1) throw new DavError(400, 'Path too deep');
  return segments;
}

/** A name the drive can hold exactly as given, or a 400 saying why not. */
export function checkName(name: string): string {
  if (name === '.' || name === '..') throw new DavError(400, 'Relative path segments are not allowed');
  if (Buffer.byteLength(name) > LIMITS.nameMaxBytes) throw new DavError(400, `Names are limited to ${LIMITS.nameMaxBytes} bytes`);
  let clean: string;
  try {
    clean = sanitizeName(name);
  } catch {
    throw new DavError(400, 'Empty name');
  }
  if (clean !== name)
    throw new DavError(400, 'Names may not contain slashes, control characters or invisible formatting, nor start or end with spaces');
  return name;
}

/**
 * The Destination header's path (an absolute URL or an absolute path), taken as sent: a URL
 * parser would resolve `..` and hide a traversal that the path checks must refuse. An absolute URL
 * must name this server, by one of `hosts`: another server's answers 502 (RFC 4918 §9.8.4, §9.9.4).
 */
export function destinationPath(header: string | undefined, hosts: readonly string[]): DavPath {
  if (!header) throw new DavError(400, 'Missing Destination header');
  const absolute = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(\/[^?#]*)?/i.exec(header);
  const pathname = absolute ? (absolute[3] ?? '/') : header.startsWith('/') ? header : null;
  if (pathname === null) throw new DavError(400, 'Malformed Destination header');
  if (absolute) {
    const scheme = absolute[1]!.toLowerCase();
    const target = hostOf(scheme, absolute[2]!);
    if (target === null) throw new DavError(400, 'Malformed Destination header');
    // A proxy that ends TLS makes the client's scheme differ from the server's: the host and port decide.
    const own = hosts.some((h) => hostOf('http', h) === target || hostOf('https', h) === target);
    if ((scheme !== 'http' && scheme !== 'https') || !own) throw new DavError(502, 'The Destination is on another server');
  }
  return parseDavPath(pathname);
}

/** `host[:port]` as a URL of `scheme` spells it (lower case, punycode, no default port), or null if it is none. */
function hostOf(scheme: string, authority: string): string | null {
  if (authority === '') return null;
  try {
    return new URL(`${scheme}://${authority}`).host;
  } catch {
    return null;
  }
}

export function pathKey(path: DavPath): string {
  return path.join('/');
}

export function hrefOf(path: DavPath, collection: boolean): string {
  const encoded = path.map((s) => encodeURIComponent(s)).join('/');
  if (path.length === 0) return `${DAV_PREFIX}/`;
  return `${DAV_PREFIX}/${encoded}${collection ? '/' : ''}`;
}

const SUFFIXED = /^(.*) \(~([0-9a-z]{8})\)((?:\.[^.]*)?)$/;

/**
 * The web app allows two items of one name in a folder; WebDAV needs one name per item. The oldest
 * item of a name (folders before files) keeps it; every later one shows with the start of its id
 * before the extension, `report (~k3j4h5g6).pdf`, a name that stays the same for as long as the
 * item lives (the suffixed name keeps working even after the oldest is gone).
 */
export function davName(name: string, id: string, primary: boolean): string {
  if (primary) return name;
  const dot = name.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return `${base} (~${id.slice(0, 8)})${ext}`;
}

/** The stored name and id prefix a suffixed WebDAV name stands for, if it is one. */
export function parseSuffixedName(segment: string): { name: string; idPrefix: string } | null {
  const m = SUFFIXED.exec(segment);
  return m ? { name: m[1]! + m[3]!, idPrefix: m[2]! } : null;
}
