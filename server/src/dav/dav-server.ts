import { StringDecoder } from 'node:string_decoder';
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { DavError } from '../domain/dav-error.js';
import type { StoredAsset } from '../services/downloads/stored-asset.js';
import { covers, type DavLockRow, type DavLockService } from '../services/webdav/dav-lock.service.js';
import {
  MAX_DEAD_PROPERTIES,
  type DavPropertyRow,
  type DavPropertyService,
  type DavPropertySize,
  type PropertyOperation,
} from '../services/webdav/dav-property.service.js';
import { etagOf, fileEtag, type DavDrive, type DavItem } from './dav-drive.js';
import { parseTimeout } from './dav-locks.js';
import { destinationPath, hrefOf, parseDavPath, pathKey, type DavPath } from './dav-paths.js';
import { IfHeaderError, parseIfHeader, submittedTokens, type IfList } from './if-header.js';
import {
  MAX_PROPFIND_NAMES,
  PROTECTED,
  activeLockXml,
  parsePropfind,
  propfindResponse,
  propstat,
  shownDeadProperties,
  type PropContext,
  type PropRequest,
} from './properties.js';
import { DAV_NS, XmlBodyError, XmlReader, child, elements, escapeXml, propertyElement, serializeFragment, type XmlElement } from './xml.js';

/** What the HTTP layer needs of a request. */
export interface DavRequest {
  method: string;
  url: string;
  header(name: string): string | undefined;
  /** The request body as a stream (never buffered by the framework). */
  body: Readable;
  /** The hosts the client addressed: its Host header and, behind a trusted proxy, the forwarded host. */
  hosts: string[];
  /** The name of the app password the request signed in with: contents it stores are recorded as come through it. */
  via?: string | null;
}

export type DavResponse =
  | { kind: 'reply'; status: number; headers?: Record<string, string>; body?: string | Readable }
  | { kind: 'file'; asset: StoredAsset; etag: string };

export interface DavServerOptions {
  maxUploadBytes: number | null;
  /** The quota in force for an account (its own or the server's default); null for none. */
  quotaOf: (ownerId: string) => Promise<number | null>;
  /** The public origin (APP_URL): a Destination on its host is on this server too. */
  appUrl: string;
}

/** Request bodies of XML methods; far more than any client sends. */
const MAX_XML_BYTES = 1024 * 1024;
const MAX_PROPERTY_BYTES = 64 * 1024;
const MAX_PROPPATCH_OPERATIONS = 2 * MAX_DEAD_PROPERTIES;
/** Elements of a PROPFIND body: its names, duplicates included, with room to spare. */
const MAX_PROPFIND_ELEMENTS = 16 * MAX_PROPFIND_NAMES;
const LIST_BATCH = 200;
/** Dead property values read in one query: a bounded amount (one item's may be more), a bounded statement. */
const VALUE_BATCH_BYTES = 4 * 1024 * 1024;
const VALUE_BATCH_KEYS = 512;
/** What the stream of a listing holds before it waits for the client, and the pieces it is given. */
const RESPONSE_BUFFER_BYTES = 64 * 1024;
const RESPONSE_CHUNK_CHARS = 16 * 1024;
const RENDER_SLICE_MS = 5;
const XML_TYPE = 'application/xml; charset=utf-8';
const XML_DECL = '<?xml version="1.0" encoding="utf-8"?>\n';

export const DAV_METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'];

function reply(status: number, headers?: Record<string, string>, body?: string | Readable): DavResponse {
  return { kind: 'reply', status, ...(headers ? { headers } : {}), ...(body !== undefined ? { body } : {}) };
}

function xmlReply(status: number, xml: string, headers: Record<string, string> = {}): DavResponse {
  return reply(status, { 'content-type': XML_TYPE, ...headers }, XML_DECL + xml);
}

/** The error body RFC 4918 §16 defines: the precondition that failed, for clients. */
export function errorBody(error: DavError): string {
  const condition = error.condition ? `<D:${error.condition}/>` : '';
  return `${XML_DECL}<D:error xmlns:D="DAV:">${condition}<D:responsedescription>${escapeXml(error.message)}</D:responsedescription></D:error>`;
}

/**
 * The XML body, parsed as it arrives. Reading stops at the first problem: the rest of the body is
 * left unread (and the connection closed after the answer) rather than drained.
 */
async function readXml(request: DavRequest, maxElements = Infinity): Promise<XmlElement | null> {
  const declared = Number(request.header('content-length') ?? 0);
  if (declared > MAX_XML_BYTES) throw new DavError(413, `XML bodies are limited to ${MAX_XML_BYTES} bytes`);
  const reader = new XmlReader(64, maxElements);
  const decoder = new StringDecoder('utf8');
  let size = 0;
  let blank = true;
  const feed = (text: string) => {
    blank &&= text.trim() === '';
    reader.write(text);
  };
  try {
    for await (const chunk of request.body.iterator({ destroyOnReturn: false })) {
      size += (chunk as Buffer).length;
      if (size > MAX_XML_BYTES) throw new DavError(413, `XML bodies are limited to ${MAX_XML_BYTES} bytes`);
      feed(decoder.write(chunk as Buffer));
    }
    feed(decoder.end());
    return blank ? null : reader.close();
  } catch (err) {
    if (err instanceof XmlBodyError) throw new DavError(400, `Malformed XML body: ${err.message}`);
    throw err;
  }
}

function hasBody(request: DavRequest): boolean {
  const length = request.header('content-length');
  return (length !== undefined && Number(length) > 0) || request.header('transfer-encoding') !== undefined;
}

function parentKey(path: DavPath): string {
  return pathKey(path.slice(0, -1));
}

/** `If-Match` / `If-None-Match` on the current state of a resource (null when there is none). */
function checkPreconditions(request: DavRequest, item: DavItem | null): void {
  const etag = item ? etagOf(item) : null;
  const matches = (header: string) => header.split(',').some((t) => t.trim() === '*' || (etag !== null && t.trim() === etag));
  const ifMatch = request.header('if-match');
  if (ifMatch && (!item || !matches(ifMatch))) throw new DavError(412, 'If-Match failed');
  const ifNoneMatch = request.header('if-none-match');
  if (ifNoneMatch && item && matches(ifNoneMatch)) throw new DavError(412, 'If-None-Match failed');
}

/**
 * The WebDAV protocol (RFC 4918 class 1 and 2, RFC 4331 quota) over one account's drive and what is
 * shared with it: request parsing and answers here; every change goes through the drive's services.
 * `callerId` is the signed-in account: locks and quota properties are always its own, also under
 * `Shared with me`.
 */
export class DavServer {
  constructor(
    private readonly drive: DavDrive,
    private readonly locks: DavLockService,
    private readonly properties: DavPropertyService,
    private readonly options: DavServerOptions,
  ) {}

  options_(): DavResponse {
    return reply(200, {
      dav: '1, 2',
      'ms-author-via': 'DAV',
      allow: DAV_METHODS.join(', '),
      'accept-ranges': 'bytes',
      'content-length': '0',
    });
  }

  async handle(callerId: string, request: DavRequest): Promise<DavResponse> {
    const path = parseDavPath(request.url);
    const conditions = await this.evaluateIf(callerId, request, path);
    switch (request.method) {
      case 'OPTIONS':
        return this.options_();
      case 'GET':
      case 'HEAD':
        return this.get(callerId, path);
      case 'PUT':
        return this.put(callerId, request, path, conditions);
      case 'DELETE':
        return this.delete(callerId, request, path, conditions);
      case 'PROPFIND':
        return this.propfind(callerId, request, path);
      case 'PROPPATCH':
        return this.proppatch(callerId, request, path, conditions);
      case 'MKCOL':
        return this.mkcol(callerId, request, path, conditions);
      case 'COPY':
      case 'MOVE':
        return this.copyOrMove(callerId, request, path, conditions);
      case 'LOCK':
        return this.lock(callerId, request, path, conditions);
      case 'UNLOCK':
        return this.unlock(callerId, request, path);
      default:
        throw new DavError(405, `${request.method} is not supported`);
    }
  }

  /**
   * Evaluates the If header (RFC 4918 §10.4): 412 when no list holds. Answers the lock tokens
   * it submits, which writes to locked resources need.
   */
  private async evaluateIf(callerId: string, request: DavRequest, path: DavPath): Promise<Set<string>> {
    const header = request.header('if');
    if (!header) return new Set();
    let lists: IfList[];
    try {
      lists = parseIfHeader(header);
    } catch (err) {
      if (err instanceof IfHeaderError) throw new DavError(400, err.message);
      throw err;
    }
    const locks = await this.locks.active(callerId);
    const states = new Map<string, { key: string; etag: string | null } | null>();
    const stateOf = async (resource: string | null) => {
      const tag = resource ?? '';
      if (!states.has(tag)) {
        let target: DavPath | null = path;
        if (resource !== null) {
          try {
            target = destinationPath(resource, this.hostsOf(request));
          } catch {
            target = null;
          }
        }
        const item = target ? await this.drive.resolve(callerId, target) : null;
        states.set(tag, target ? { key: pathKey(target), etag: item ? etagOf(item) : null } : null);
      }
      return states.get(tag)!;
    };
    let holds = false;
    for (const list of lists) {
      const state = await stateOf(list.resource);
      if (!state) continue;
      const listHolds = list.conditions.every((c) => {
        const met =
          c.token !== undefined ? locks.some((l) => l.token === c.token && covers(l, state.key)) : c.etag === state.etag && c.etag !== null;
        return c.not ? !met : met;
      });
      if (listHolds) holds = true;
    }
    if (!holds) throw new DavError(412, 'The If header does not match the state of the resource');
    return submittedTokens(lists);
  }

  private hostsOf(request: DavRequest): string[] {
    return [...request.hosts, new URL(this.options.appUrl).host];
  }

  /** 423 unless the request submitted a token for every lock on what it writes. */
  private async assertUnlocked(callerId: string, tokens: Set<string>, writes: { key: string; deep: boolean }[]): Promise<void> {
    const locks = await this.locks.active(callerId);
    if (locks.length === 0) return;
    const missing = this.locks.required(locks, writes).filter((l) => !tokens.has(l.token));
    if (missing.length > 0) throw new DavError(423, 'The resource is locked', 'lock-token-submitted');
  }

  private async get(callerId: string, path: DavPath): Promise<DavResponse> {
    const item = await this.drive.resolve(callerId, path);
    if (!item) throw new DavError(404, 'Not found');
    if (item.kind !== 'file') {
      return reply(200, { 'content-type': 'text/plain; charset=utf-8' }, 'Nimbus WebDAV collection: open it with a WebDAV client.\n');
    }
    return { kind: 'file', asset: this.drive.asset(item.row), etag: etagOf(item) };
  }

  private async put(callerId: string, request: DavRequest, path: DavPath, tokens: Set<string>): Promise<DavResponse> {
    if (path.length === 0) throw new DavError(405, 'The root is a collection');
    const declared = Number(request.header('content-length') ?? 0);
    const { maxUploadBytes } = this.options;
    if (maxUploadBytes !== null && declared > maxUploadBytes) throw new DavError(413, `File is larger than ${maxUploadBytes} bytes`);
    if (request.header('content-range')) throw new DavError(400, 'Partial PUT is not supported');
    const existing = await this.drive.resolve(callerId, path);
    if (existing && existing.kind !== 'file') throw new DavError(405, 'A collection cannot be overwritten by PUT');
    checkPreconditions(request, existing);
    if (existing) {
      await this.assertUnlocked(callerId, tokens, [{ key: pathKey(path), deep: false }]);
      const file = await this.drive.replaceFile(callerId, existing, request.body, request.via ?? null);
      return reply(204, { etag: fileEtag(file.sha256) });
    }
    const parent = await this.drive.parentOf(callerId, path);
    await this.assertUnlocked(callerId, tokens, [
      { key: pathKey(path), deep: false },
      { key: parentKey(path), deep: false },
    ]);
    const file = await this.drive.createFile(callerId, parent, path[path.length - 1]!, request.body, request.via ?? null);
    return reply(201, { etag: fileEtag(file.sha256), location: hrefOf(path, false) });
  }

  private async delete(callerId: string, request: DavRequest, path: DavPath, tokens: Set<string>): Promise<DavResponse> {
    const item = await this.drive.resolve(callerId, path);
    if (!item) throw new DavError(404, 'Not found');
    if (item.kind === 'root' || item.kind === 'shared') throw new DavError(403, 'This collection cannot be deleted');
    checkPreconditions(request, item);
    await this.assertUnlocked(callerId, tokens, [
      { key: pathKey(path), deep: true },
      { key: parentKey(path), deep: false },
    ]);
    await this.drive.trash(callerId, item);
    await this.locks.releaseUnder(callerId, pathKey(path));
    return reply(204);
  }

  private async mkcol(callerId: string, request: DavRequest, path: DavPath, tokens: Set<string>): Promise<DavResponse> {
    if (hasBody(request)) {
      request.body.resume();
      throw new DavError(415, 'MKCOL with a body is not supported');
    }
    if (path.length === 0 || (await this.drive.resolve(callerId, path))) throw new DavError(405, 'Something already exists at this path');
    const parent = await this.drive.parentOf(callerId, path);
    await this.assertUnlocked(callerId, tokens, [
      { key: pathKey(path), deep: false },
      { key: parentKey(path), deep: false },
    ]);
    await this.drive.createFolder(callerId, parent, path[path.length - 1]!);
    return reply(201, { location: hrefOf(path, true) });
  }

  private async propfind(callerId: string, request: DavRequest, path: DavPath): Promise<DavResponse> {
    const depth = request.header('depth') ?? '1';
    if (depth.toLowerCase() === 'infinity') throw new DavError(403, 'Depth: infinity is not supported', 'propfind-finite-depth');
    if (depth !== '0' && depth !== '1') throw new DavError(400, 'Depth must be 0 or 1');
    let propRequest: PropRequest;
    try {
      propRequest = parsePropfind(await readXml(request, MAX_PROPFIND_ELEMENTS));
    } catch (err) {
      if (err instanceof DavError) throw err;
      throw new DavError(400, (err as Error).message);
    }
    const item = await this.drive.resolve(callerId, path);
    if (!item) throw new DavError(404, 'Not found');
    const ctx: PropContext = { locks: await this.locks.active(callerId), quota: null };
    const wantsQuota =
      propRequest.kind === 'prop'
        ? propRequest.names.some((q) => q.ns === DAV_NS && q.local.startsWith('quota-'))
        : propRequest.kind === 'allprop' && propRequest.include.some((q) => q.ns === DAV_NS && q.local.startsWith('quota-'));
    if (wantsQuota) {
      const used = await this.drive.bytesCharged(callerId);
      const quotaBytes = await this.options.quotaOf(callerId);
      // Kept versions are used bytes, but they give way to new content: a client that trusts the
      // free space it is told must not stop short of what the server would take.
      const room = quotaBytes === null ? null : quotaBytes - used + (await this.drive.versionBytes(callerId));
      ctx.quota = { used, available: room === null ? null : Math.max(0, room) };
    }
    const withDead = (items: DavItem[]) => this.withDead(callerId, propRequest, items);
    let first = '';
    for await (const [, dead] of withDead([item])) first = propfindResponse(item, propRequest, dead, ctx);
    const members = depth === '1' && item.kind !== 'file' ? this.drive.children(callerId, item) : null;
    async function* multistatus(): AsyncGenerator<string> {
      let out = `${XML_DECL}<D:multistatus xmlns:D="DAV:">${first}`;
      let slice = performance.now();
      const render = async function* (page: DavItem[]): AsyncGenerator<string> {
        for await (const [member, dead] of withDead(page)) {
          out += propfindResponse(member, propRequest, dead, ctx);
          // Out once there is a chunk of it: the stream takes no more until the client has read it.
          if (out.length >= RESPONSE_CHUNK_CHARS) {
            yield out;
            out = '';
          }
          // Other requests get the event loop between items, at least every few milliseconds.
          if (performance.now() - slice >= RENDER_SLICE_MS) {
            await setImmediate();
            slice = performance.now();
          }
        }
      };
      if (members) {
        let page: DavItem[] = [];
        for await (const member of members) {
          page.push(member);
          if (page.length === LIST_BATCH) {
            yield* render(page);
            page = [];
          }
        }
        if (page.length > 0) yield* render(page);
      }
      yield `${out}</D:multistatus>`;
    }
    // Bytes, not chunks, count toward the buffer: items are rendered only as fast as the client reads.
    const body = Readable.from(multistatus(), { objectMode: false, highWaterMark: RESPONSE_BUFFER_BYTES });
    return reply(207, { 'content-type': XML_TYPE }, body);
  }

  /**
   * `items` with the dead properties their answers show. Names and sizes come first, for a page
   * at once; values are read only for what is shown, a few MiB at a time, as one item can hold
   * 256 values of 64 KiB.
   */
  private async *withDead(callerId: string, request: PropRequest, items: DavItem[]): AsyncGenerator<[DavItem, DavPropertyRow[]]> {
    const wantsDead = request.kind !== 'prop' || request.names.some((q) => q.ns !== DAV_NS || !PROTECTED.has(q.local));
    if (!wantsDead) {
      for (const i of items) yield [i, []];
      return;
    }
    const properties = this.properties;
    const stored = await properties.sizes(items.flatMap((i) => ('row' in i ? [i.row.id] : [])));
    const storedOf = (i: DavItem): DavPropertySize[] => ('row' in i ? (stored.get(i.row.id) ?? []) : []);
    if (request.kind === 'propname') {
      for (const i of items) yield [i, storedOf(i).map((p) => ({ ...p, ownerId: 'row' in i ? i.row.ownerId : callerId, value: '' }))];
      return;
    }
    let group: DavItem[] = [];
    let keys: DavPropertySize[] = [];
    let bytes = 0;
    const flush = async function* (): AsyncGenerator<[DavItem, DavPropertyRow[]]> {
      const values = await properties.values(keys);
      for (const i of group) yield [i, 'row' in i ? (values.get(i.row.id) ?? []) : []];
      [group, keys, bytes] = [[], [], 0];
    };
    for (const i of items) {
      const shown = shownDeadProperties(request, storedOf(i));
      const size = shown.reduce((sum, p) => sum + p.bytes, 0);
      if (group.length > 0 && (bytes + size > VALUE_BATCH_BYTES || keys.length + shown.length > VALUE_BATCH_KEYS)) yield* flush();
      group.push(i);
      keys.push(...shown);
      bytes += size;
    }
    if (group.length > 0) yield* flush();
  }

  private async proppatch(callerId: string, request: DavRequest, path: DavPath, tokens: Set<string>): Promise<DavResponse> {
    const body = await readXml(request);
    if (!body || body.ns !== DAV_NS || body.local !== 'propertyupdate') throw new DavError(400, 'Expected a DAV:propertyupdate body');
    const item = await this.drive.resolve(callerId, path);
    if (!item) throw new DavError(404, 'Not found');
    if (item.kind === 'root' || item.kind === 'shared') throw new DavError(403, 'This collection has no properties of its own');
    await this.drive.assertWritable(callerId, item);
    await this.assertUnlocked(callerId, tokens, [{ key: pathKey(path), deep: false }]);

    const operations: PropertyOperation[] = [];
    for (const op of elements(body)) {
      if (op.ns !== DAV_NS || (op.local !== 'set' && op.local !== 'remove')) continue;
      const prop = child(op, DAV_NS, 'prop');
      if (!prop) throw new DavError(400, `DAV:${op.local} without DAV:prop`);
      for (const p of elements(prop)) {
        operations.push({
          set: op.local === 'set',
          ns: p.ns,
          local: p.local,
          value: op.local === 'set' ? serializeFragment(p.children) : '',
        });
      }
    }
    // Each operation is a write in one transaction: thousands of them would hold the database for seconds.
    if (operations.length > MAX_PROPPATCH_OPERATIONS)
      throw new DavError(400, `A PROPPATCH may change at most ${MAX_PROPPATCH_OPERATIONS} properties`);
    const failures = new Map<number, number>();
    operations.forEach((op, i) => {
      if (op.ns === DAV_NS && PROTECTED.has(op.local)) failures.set(i, 403);
      else if (op.set && Buffer.byteLength(op.value) > MAX_PROPERTY_BYTES) failures.set(i, 507);
    });
    const itemId = item.row.id;
    // Dead properties belong to the item's owner, also when an editor of a share sets them.
    if (failures.size === 0) await this.properties.patch(item.row.ownerId, itemId, operations);
    const byStatus = new Map<number, string[]>();
    operations.forEach((op, i) => {
      const status = failures.size === 0 ? 200 : (failures.get(i) ?? 424);
      (byStatus.get(status) ?? byStatus.set(status, []).get(status)!).push(propertyElement(op.ns, op.local, ''));
    });
    const stats = [...byStatus].map(([status, props]) => propstat(props, status)).join('');
    const href = escapeXml(hrefOf(path, item.kind !== 'file'));
    return xmlReply(207, `<D:multistatus xmlns:D="DAV:"><D:response><D:href>${href}</D:href>${stats}</D:response></D:multistatus>`);
  }

  private async copyOrMove(callerId: string, request: DavRequest, path: DavPath, tokens: Set<string>): Promise<DavResponse> {
    const isMove = request.method === 'MOVE';
    const item = await this.drive.resolve(callerId, path);
    if (!item) throw new DavError(404, 'Not found');
    if (item.kind === 'root' || item.kind === 'shared') throw new DavError(403, 'This collection cannot be copied or moved');
    const dest = destinationPath(request.header('destination'), this.hostsOf(request));
    const depth = (request.header('depth') ?? 'infinity').toLowerCase();
    if (depth !== 'infinity' && (isMove || depth !== '0')) throw new DavError(400, `Depth ${depth} is not allowed for ${request.method}`);
    const overwriteHeader = (request.header('overwrite') ?? 'T').toUpperCase();
    if (overwriteHeader !== 'T' && overwriteHeader !== 'F') throw new DavError(400, 'Overwrite must be T or F');
    if (dest.length === 0) throw new DavError(403, 'The root cannot be replaced');
    if (pathKey(dest) === pathKey(path)) throw new DavError(403, 'Source and destination are the same');

    const destParent = await this.drive.parentOf(callerId, dest);
    if (item.kind === 'folder' && (await this.drive.isWithin(destParent, item))) {
      throw new DavError(403, 'A collection cannot be copied or moved into itself');
    }
    const transfer = await this.drive.planTransfer(callerId, item, destParent, isMove);
    const existing = await this.drive.resolve(callerId, dest);
    if (existing && overwriteHeader === 'F') throw new DavError(412, 'The destination exists and Overwrite is F');
    const writes = [
      { key: pathKey(dest), deep: true },
      { key: parentKey(dest), deep: false },
    ];
    if (isMove) writes.push({ key: pathKey(path), deep: true }, { key: parentKey(path), deep: false });
    await this.assertUnlocked(callerId, tokens, writes);

    if (existing) {
      await this.drive.trash(callerId, existing);
      await this.locks.releaseUnder(callerId, pathKey(dest));
    }
    const name = dest[dest.length - 1]!;
    if (isMove) {
      await this.drive.move(transfer, name);
      await this.locks.releaseUnder(callerId, pathKey(path));
    } else {
      await this.drive.copy(transfer, name, depth === 'infinity', { accountId: callerId, via: request.via ?? null });
    }
    return reply(existing ? 204 : 201, existing ? undefined : { location: hrefOf(dest, item.kind !== 'file') });
  }

  private async lock(callerId: string, request: DavRequest, path: DavPath, tokens: Set<string>): Promise<DavResponse> {
    const body = await readXml(request);
    const timeoutSeconds = parseTimeout(request.header('timeout'));
    if (!body) {
      const refreshed = await this.locks.refresh(callerId, pathKey(path), tokens, timeoutSeconds);
      return this.lockAnswer(200, refreshed);
    }
    if (body.ns !== DAV_NS || body.local !== 'lockinfo') throw new DavError(400, 'Expected a DAV:lockinfo body');
    const scopeElement = child(body, DAV_NS, 'lockscope');
    const scope =
      scopeElement && child(scopeElement, DAV_NS, 'shared')
        ? 'shared'
        : scopeElement && child(scopeElement, DAV_NS, 'exclusive')
          ? 'exclusive'
          : null;
    if (!scope) throw new DavError(400, 'DAV:lockscope must be exclusive or shared');
    const type = child(body, DAV_NS, 'locktype');
    if (!type || !child(type, DAV_NS, 'write')) throw new DavError(400, 'Only write locks exist');
    const depth = (request.header('depth') ?? 'infinity').toLowerCase();
    if (depth !== '0' && depth !== 'infinity') throw new DavError(400, 'Depth must be 0 or infinity');
    const owner = child(body, DAV_NS, 'owner');
    const ownerXml = owner ? serializeFragment(owner.children) : '';
    if (Buffer.byteLength(ownerXml) > MAX_PROPERTY_BYTES) throw new DavError(400, 'Lock owner too large');

    const existing = await this.drive.resolve(callerId, path);
    if (existing) await this.drive.assertWritable(callerId, existing);
    const parent = existing ? null : await this.drive.parentOf(callerId, path);
    if (parent?.kind === 'shared') throw new DavError(403, 'Nothing can be created here');
    if (!existing) await this.assertUnlocked(callerId, tokens, [{ key: parentKey(path), deep: false }]);
    const lock = await this.locks.lock(callerId, {
      path: pathKey(path),
      depth: depth as '0' | 'infinity',
      scope,
      ownerXml,
      timeoutSeconds,
    });
    if (parent) {
      // An unmapped URL becomes an empty file (RFC 4918 §7.3), kept by the lock that made it.
      try {
        await this.drive.createFile(callerId, parent, path[path.length - 1]!, Readable.from([]), request.via ?? null);
      } catch (err) {
        await this.locks.unlock(callerId, lock.path, lock.token);
        throw err;
      }
    }
    return this.lockAnswer(parent ? 201 : 200, lock);
  }

  private lockAnswer(status: number, lock: DavLockRow): DavResponse {
    return xmlReply(status, `<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(lock)}</D:lockdiscovery></D:prop>`, {
      'lock-token': `<${lock.token}>`,
    });
  }

  private async unlock(callerId: string, request: DavRequest, path: DavPath): Promise<DavResponse> {
    const header = request.header('lock-token')?.trim();
    const token = header?.startsWith('<') && header.endsWith('>') ? header.slice(1, -1) : null;
    if (!token) throw new DavError(400, 'UNLOCK needs a Lock-Token header');
    await this.locks.unlock(callerId, pathKey(path), token);
    return reply(204);
  }
}
