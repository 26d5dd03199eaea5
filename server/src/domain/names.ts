import { LIMITS } from '@nimbus/common';
import { InvalidError } from './errors.js';

// C0 and C1 control characters and DEL never belong in a name.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const SEPARATOR = /[/\\]/g;
/**
 * Invisible formatting that can make a name read as something else (U+202E turns `gnp.exe` into
 * `exe.png` on screen): bidirectional overrides, embeddings and isolates, directional and
 * zero-width marks, and the byte-order mark.
 */
const DECEPTIVE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let out = '';
  for (const ch of text) {
    bytes += Buffer.byteLength(ch);
    if (bytes > maxBytes) break;
    out += ch;
  }
  return out;
}

/**
 * A file or folder name as stored: separators replaced, control and invisible formatting characters removed,
 * trimmed, NFC, at most 255 UTF-8 bytes (keeping the extension). Everything else is kept as given.
 */
export function sanitizeName(raw: string): string {
  let name = raw.normalize('NFC').replace(CONTROL, '').replace(DECEPTIVE, '').replace(SEPARATOR, '_').trim();
  if (name === '.' || name === '..') name = name.replace(/\./g, '_');
  if (Buffer.byteLength(name) > LIMITS.nameMaxBytes) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = truncateUtf8(name.slice(0, name.length - ext.length), LIMITS.nameMaxBytes - Buffer.byteLength(ext)).trimEnd() + ext;
  }
  if (name.length === 0) throw new InvalidError('Please Enter a Name');
  return name;
}

/** The key names are sorted and searched by. */
export function nameKeyOf(name: string): string {
  return name.toLowerCase();
}
