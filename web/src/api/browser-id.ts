import { STORAGE_KEYS } from '@nimbus/common';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

let cached: string | null = null;

/** A random version 4 uuid; built from getRandomValues, which (unlike randomUUID) also works outside secure contexts. */
export function newUuidV4(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.browserId);
  } catch {
    return null;
  }
}

/** The id of this browser, created once and kept in localStorage `browser-id`; sent as the `uuid` header. */
export function getBrowserId(): string {
  const stored = readStored();
  if (stored && UUID_V4.test(stored)) {
    cached = stored;
    return stored;
  }
  cached ??= newUuidV4();
  try {
    localStorage.setItem(STORAGE_KEYS.browserId, cached);
  } catch {
    // Storage may be unavailable (private mode); the id then lives as long as the page.
  }
  return cached;
}
