import type { FastifyReply, FastifyRequest } from 'fastify';
import { authOf } from './plugins/auth.js';

interface Entry {
  version: number;
  body: Buffer;
  /** What the entry is charged against the budget: its body, key and bookkeeping. */
  cost: number;
  /** Served since it last came up for eviction: it gets another round instead. */
  used: boolean;
}

/** Bytes charged per entry beyond its body and key: the map slot and the entry object. */
const ENTRY_OVERHEAD = 160;
/** Keys remembered as asked once (a fingerprint each, 16 KB in all); more than the cache holds answers. */
const SEEN_SLOTS = 4096;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Serialized JSON answers of an owner's read calls (lists, the user), each kept with the drive
 * version of its owner read before it was computed (see the drive_version migration). An answer is
 * served again only while the version read by the request asking for it is the same, so it is
 * never older than the database; the least recently used answers (about) go first past `maxBytes`.
 * Keys name the owner, so one account's answers never reach another.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  /** Fingerprints of keys asked for, by slot (0: none); see `askedBefore`. */
  private readonly seen = new Uint32Array(SEEN_SLOTS);
  private bytes = 0;
  /** Answers served from the cache, and computed for want of one (tests and diagnostics read them). */
  hits = 0;
  misses = 0;

  constructor(
    readonly maxBytes: number,
    /** A bigger answer is not kept: it would push out many small ones. */
    readonly maxEntryBytes = Math.floor(maxBytes / 8),
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  /**
   * Whether `key` was asked for before (as far as a table of fingerprints remembers); it is from
   * now on. Answers are kept only at their key's second asking: one asked once (a query string of
   * its own, a page scrolled past) would only have lived in memory until evicted, and under load
   * such kept answers outlived the young generation and were copied and promoted by every
   * collection. A fingerprint clash only keeps an answer early.
   */
  askedBefore(key: string): boolean {
    // FNV-1a over the key's UTF-16 units; 0 marks an empty slot, so a fingerprint is never 0.
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    const fingerprint = hash >>> 0 || 1;
    const slot = fingerprint & (SEEN_SLOTS - 1);
    if (this.seen[slot] === fingerprint) return true;
    this.seen[slot] = fingerprint;
    return false;
  }

  /** The answer stored under `key` for exactly this version. */
  get(key: string, version: number): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version === version) {
      entry.used = true;
      return entry.body;
    }
    // Older answers never serve again; a newer one (a slower request read an older version) may.
    if (entry.version < version) this.remove(key, entry);
    return undefined;
  }

  set(key: string, version: number, body: Buffer): void {
    const cost = body.length + key.length * 2 + ENTRY_OVERHEAD;
    if (body.length > this.maxEntryBytes || cost > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      if (old.version > version) return;
      this.remove(key, old);
    }
    this.evictFor(cost);
    this.entries.set(key, { version, body, cost, used: false });
    this.bytes += cost;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.cost;
  }

  /**
   * Least recently used first, approximately (the "second chance" clock): the oldest entry goes
   * unless it was served since its last turn, in which case it moves to the back. A hit then costs
   * one map lookup, where keeping exact recency would move the entry on every hit.
   */
  private evictFor(cost: number): void {
    while (this.bytes + cost > this.maxBytes) {
      const [key, entry] = this.entries.entries().next().value!;
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
      } else this.bytes -= entry.cost;
    }
  }
}

/** An answer that must not be kept: it shows another account's rows, which move that account's version, not the caller's. */
export class NotKept {
  constructor(readonly value: unknown) {}
}

export function notKept(value: unknown): NotKept {
  return new NotKept(value);
}

/** An answer already serialized: sent (and kept) as this JSON text. */
export class JsonText {
  constructor(readonly text: string) {}
}

export function jsonText(text: string): JsonText {
  return new JsonText(text);
}

/**
 * Sent as a buffer even when not kept: a string would be flattened into the young generation
 * twice on its way out (for its length, then joined to the head), where the buffer's bytes live
 * outside the heap.
 */
function bodyOf(value: unknown): Buffer {
  return Buffer.from(value instanceof JsonText ? value.text : JSON.stringify(value));
}

/**
 * Answers a signed-in read call from the cache when the owner's drive has not changed since the
 * answer was made, else computes it with `answer` and keeps it once its key was asked for before
 * (see `askedBefore`). The key is the owner, the call's name and its raw query string: the same
 * query string always parses to the same input, and anything else (an error, a request without a version) is neither kept nor served from the cache.
 *
 * Only for answers made from the owner's rows that move the drive version (files, folders, the
 * account's e-mail fields) and the query alone: nothing signed, expiring or read elsewhere.
 */
export async function sendCachedJson(
  cache: AnswerCache,
  request: FastifyRequest,
  reply: FastifyReply,
  call: string,
  answer: () => Promise<unknown>,
): Promise<FastifyReply> {
  const { accountId, driveVersion } = authOf(request);
  if (driveVersion === undefined) {
    let value = await answer();
    if (value instanceof NotKept) value = value.value;
    return value instanceof JsonText ? reply.type(JSON_TYPE).send(bodyOf(value)) : reply.send(value);
  }
  const url = request.url;
  const q = url.indexOf('?');
  const key = `${accountId}\n${call}\n${q < 0 ? '' : url.slice(q + 1)}`;
  let body = cache.get(key, driveVersion);
  if (body) cache.hits++;
  else {
    cache.misses++;
    const value = await answer();
    if (value instanceof NotKept) return reply.type(JSON_TYPE).send(bodyOf(value.value));
    body = bodyOf(value);
    if (cache.askedBefore(key)) cache.set(key, driveVersion, body);
  }
  return reply.type(JSON_TYPE).send(body);
}
