import type { DavLockRow, DavPropertyRow } from '../db/repositories/dav.repository.js';
import { etagOf, type DavItem } from './dav-drive.js';
import { covers } from './dav-locks.js';
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

export function parsePropfind(body: XmlElement | null): PropRequest {
  if (!body) return { kind: 'allprop', include: [] };
  if (body.ns !== DAV_NS || body.local !== 'propfind') throw new Error('Expected DAV:propfind');
  const prop = child(body, DAV_NS, 'prop');
  if (prop) return { kind: 'prop', names: elements(prop).map(({ ns, local }) => ({ ns, local })) };
  if (child(body, DAV_NS, 'propname')) return { kind: 'propname' };
  const include = child(body, DAV_NS, 'include');
  return { kind: 'allprop', include: include ? elements(include).map(({ ns, local }) => ({ ns, local })) : [] };
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
  const row = item.kind === 'root' ? null : item.row;
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

/** One `D:response` of a PROPFIND multistatus. */
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
    for (const q of names) {
      const value = q.ns === DAV_NS && PROTECTED.has(q.local) ? liveValue(item, q.local, ctx) : undefined;
      if (value !== undefined) {
        found.push(propertyElement(DAV_NS, q.local, value));
        continue;
      }
      const stored = dead.find((d) => d.namespace === q.ns && d.name === q.local);
      if (stored) found.push(propertyElement(q.ns, q.local, stored.value));
      else missing.push(propertyElement(q.ns, q.local, ''));
    }
    if (request.kind === 'allprop') {
      for (const d of dead)
        if (!names.some((q) => q.ns === d.namespace && q.local === d.name)) found.push(propertyElement(d.namespace, d.name, d.value));
    }
  }
  const href = hrefOf(item.path, item.kind !== 'file');
  return `<D:response><D:href>${escapeXml(href)}</D:href>${propstat(found, 200)}${propstat(missing, 404)}</D:response>`;
}
