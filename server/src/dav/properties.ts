import { DavError } from '../domain/dav-error.js';
import { covers, type DavLockRow } from '../services/webdav/dav-lock.service.js';
import type { DavPropertyRow, DavPropertySize } from '../services/webdav/dav-property.service.js';
import { etagOf, type DavItem } from './dav-drive.js';
import { hrefOf } from './dav-paths.js';
import { DAV_NS, child, elements, escapeXml, propertyElement, type XmlElement } from './xml.js';

export interface QName {
  ns: string;
  local: string;
}

export type PropRequest = { kind: 'allprop'; include: QName[] } | { kind: 'propname' } | { kind: 'prop'; names: QName[] };

/** What every response of one request shares: the owner's locks and, when asked for, the quota. */
export interface PropContext {
  locks: DavLockRow[];
  quota: { used: number; available: number | null } | null;
}

/** Live properties every client relies on; allprop gives these (RFC 4331's quota ones only when named). */
const LIVE = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'resourcetype',
  'supportedlock',
  'lockdiscovery',
] as const;
const QUOTA = ['quota-used-bytes', 'quota-available-bytes'] as const;
/** Live properties a client may not set or remove. */
export const PROTECTED = new Set<string>([...LIVE, ...QUOTA]);

const SUPPORTED_LOCK = ['exclusive', 'shared']
  .map((s) => `<D:lockentry><D:lockscope><D:${s}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>`)
  .join('');

/** A local name never contains a space, so this key is unambiguous. */
function keyOf(ns: string, local: string): string {
  return `${local} ${ns}`;
}

/** Real clients name fewer than 30; every name is echoed for every item of a listing. */
export const MAX_PROPFIND_NAMES = 256;
/** Namespaces and local names of one request together; real clients stay under 4 KiB. */
export const MAX_PROPFIND_NAME_CHARS = 16 * 1024;

/**
 * The distinct names under `parent`, in first-seen order. Too many (or too long) is a 400, not a
 * 413: the body is small, and clients treat 413 as "upload smaller content", which cannot help.
 */
function propNames(parent: XmlElement): QName[] {
  const names = new Map<string, QName>();
  let chars = 0;
  for (const { ns, local } of elements(parent)) {
    const key = keyOf(ns, local);
    if (names.has(key)) continue;
    names.set(key, { ns, local });
    chars += ns.length + local.length;
    if (names.size > MAX_PROPFIND_NAMES) throw new DavError(400, `A PROPFIND may name at most ${MAX_PROPFIND_NAMES} distinct properties`);
    if (chars > MAX_PROPFIND_NAME_CHARS)
      throw new DavError(400, `The property names of a PROPFIND may total at most ${MAX_PROPFIND_NAME_CHARS} characters`);
  }
  return [...names.values()];
}

export function parsePropfind(body: XmlElement | null): PropRequest {
  if (!body) return { kind: 'allprop', include: [] };
  if (body.ns !== DAV_NS || body.local !== 'propfind') throw new DavError(400, 'Expected DAV:propfind');
  const prop = child(body, DAV_NS, 'prop');
  if (prop) return { kind: 'prop', names: propNames(prop) };
  if (child(body, DAV_NS, 'propname')) return { kind: 'propname' };
  const include = child(body, DAV_NS, 'include');
  return { kind: 'allprop', include: include ? propNames(include) : [] };
}

export function activeLockXml(lock: DavLockRow): string {
  const root = lock.path === '' ? [] : lock.path.split('/');
  return (
    '<D:activelock>' +
    `<D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth === '0' ? '0' : 'infinity'}</D:depth>` +
    (lock.ownerXml ? `<D:owner>${lock.ownerXml}</D:owner>` : '') +
    `<D:timeout>Second-${lock.timeoutSeconds}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(hrefOf(root, false))}</D:href></D:lockroot>` +
    '</D:activelock>'
  );
}

function liveValue(item: DavItem, local: string, ctx: PropContext): string | undefined {
  const row = 'row' in item ? item.row : null;
  switch (local) {
    case 'creationdate':
      return row ? new Date('filename' in row ? row.uploadedAt : row.createdAt).toISOString() : undefined;
    case 'displayname':
      return escapeXml(item.path[item.path.length - 1] ?? '');
    case 'getcontentlength':
      return item.kind === 'file' ? String(item.row.size) : undefined;
    case 'getcontenttype':
      return item.kind === 'file' ? escapeXml(item.row.contentType) : undefined;
    case 'getetag':
      return escapeXml(etagOf(item));
    case 'getlastmodified':
      return row ? new Date('filename' in row ? row.uploadedAt : row.updatedAt).toUTCString() : undefined;
    case 'resourcetype':
      return item.kind === 'file' ? '' : '<D:collection/>';
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'lockdiscovery':
      return ctx.locks
        .filter((l) => covers(l, item.path.join('/')))
        .map(activeLockXml)
        .join('');
    case 'quota-used-bytes':
      return ctx.quota ? String(ctx.quota.used) : undefined;
    case 'quota-available-bytes':
      return ctx.quota?.available != null ? String(ctx.quota.available) : undefined;
    default:
      return undefined;
  }
}

const STATUS_LINE: Record<number, string> = {
  200: 'HTTP/1.1 200 OK',
  403: 'HTTP/1.1 403 Forbidden',
  404: 'HTTP/1.1 404 Not Found',
  409: 'HTTP/1.1 409 Conflict',
  424: 'HTTP/1.1 424 Failed Dependency',
  507: 'HTTP/1.1 507 Insufficient Storage',
};

export function statusLine(status: number): string {
  return STATUS_LINE[status] ?? `HTTP/1.1 ${status} Error`;
}

export function propstat(props: string[], status: number): string {
  return props.length === 0 ? '' : `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(status)}</D:status></D:propstat>`;
}

/**
 * allprop answers with small dead properties only: a value over `ALLPROP_VALUE_BYTES`, or past
 * `ALLPROP_ITEM_BYTES` for one item, is left for the client to ask for by name (propname still
 * lists every name). Without this, 256 values of 64 KiB on every item of a folder make each
 * listing gigabytes.
 */
export const ALLPROP_VALUE_BYTES = 4 * 1024;
export const ALLPROP_ITEM_BYTES = 64 * 1024;

/** Of an item's dead properties (names and sizes, in name order), those whose values an answer shows. */
export function shownDeadProperties(request: PropRequest, stored: DavPropertySize[]): DavPropertySize[] {
  if (request.kind === 'propname') return [];
  const named = new Set((request.kind === 'prop' ? request.names : request.include).map((q) => keyOf(q.ns, q.local)));
  if (request.kind === 'prop') return stored.filter((p) => named.has(keyOf(p.namespace, p.name)));
  let budget = ALLPROP_ITEM_BYTES;
  return stored.filter((p) => {
    if (named.has(keyOf(p.namespace, p.name))) return true;
    if (p.bytes > ALLPROP_VALUE_BYTES || p.bytes > budget) return false;
    budget -= p.bytes;
    return true;
  });
}

/**
 * One `D:response` of a PROPFIND multistatus. `dead` holds the item's dead properties the answer
 * shows (`shownDeadProperties`), or for propname all of them (values not needed).
 */
export function propfindResponse(item: DavItem, request: PropRequest, dead: DavPropertyRow[], ctx: PropContext): string {
  const found: string[] = [];
  const missing: string[] = [];
  const liveNames = LIVE.filter((l) => liveValue(item, l, ctx) !== undefined);
  if (request.kind === 'propname') {
    for (const l of liveNames) found.push(`<D:${l}/>`);
    for (const d of dead) found.push(propertyElement(d.namespace, d.name, ''));
  } else {
    const names: QName[] =
      request.kind === 'prop'
        ? request.names
        : [
            ...liveNames.map((local) => ({ ns: DAV_NS, local })),
            ...request.include.filter((q) => !(q.ns === DAV_NS && liveNames.includes(q.local as never))),
          ];
    const stored = new Map(dead.map((d) => [keyOf(d.namespace, d.name), d]));
    for (const q of names) {
      const value = q.ns === DAV_NS && PROTECTED.has(q.local) ? liveValue(item, q.local, ctx) : undefined;
      if (value !== undefined) {
        found.push(propertyElement(DAV_NS, q.local, value));
        continue;
      }
      const row = stored.get(keyOf(q.ns, q.local));
      if (row) found.push(propertyElement(q.ns, q.local, row.value));
      else missing.push(propertyElement(q.ns, q.local, ''));
    }
    if (request.kind === 'allprop') {
      const named = new Set(names.map((q) => keyOf(q.ns, q.local)));
      for (const d of dead) if (!named.has(keyOf(d.namespace, d.name))) found.push(propertyElement(d.namespace, d.name, d.value));
    }
  }
  const href = hrefOf(item.path, item.kind !== 'file');
  return `<D:response><D:href>${escapeXml(href)}</D:href>${propstat(found, 200)}${propstat(missing, 404)}</D:response>`;
}
