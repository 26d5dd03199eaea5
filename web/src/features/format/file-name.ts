/** The extension badge of a file: up to `max` characters (4, or 3 in compact views), uppercase, "UNK" without an extension. */
export function extensionBadge(filename: string, max = 4): string {
  const dot = filename.lastIndexOf('.');
  const extension = dot > 0 ? filename.slice(dot + 1).trim() : '';
  if (!extension) return 'UNK';
  return Array.from(extension).slice(0, max).join('').toUpperCase();
}

/** Shortens a name in the middle to at most `max` characters with an ellipsis, keeping its start and its extension visible. */
export function shortenMiddle(name: string, max: number): string {
  const chars = Array.from(name);
  if (chars.length <= max) return name;
  const ellipsis = '...';
  const room = Math.max(max - ellipsis.length, 2);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  return `${chars.slice(0, head).join('')}${ellipsis}${chars.slice(chars.length - tail).join('')}`;
}

const BADGE_COLORS: Record<string, string> = {
  PDF: '#d93025',
  DOC: '#1a73e8',
  DOCX: '#1a73e8',
  TXT: '#5f6368',
  MD: '#5f6368',
  XLS: '#188038',
  XLSX: '#188038',
  CSV: '#188038',
  PPT: '#e37400',
  PPTX: '#e37400',
  ZIP: '#795548',
  RAR: '#795548',
  '7Z': '#795548',
  MP3: '#9334e6',
  WAV: '#9334e6',
  MP4: '#c5221f',
  MOV: '#c5221f',
  WEBM: '#c5221f',
  MKV: '#c5221f',
  JPG: '#f29900',
  JPEG: '#f29900',
  PNG: '#f29900',
  GIF: '#f29900',
  WEBP: '#f29900',
  HEIC: '#f29900',
  SVG: '#f29900',
};
const FALLBACK_COLORS = ['#3c85ee', '#00897b', '#7b1fa2', '#c2185b', '#5d4037', '#455a64'];

/** A stable colour for a badge: known kinds get their own, others one picked from the extension. */
export function badgeColor(filename: string): string {
  const badge = extensionBadge(filename, 5);
  const known = BADGE_COLORS[badge];
  if (known) return known;
  let hash = 0;
  for (const char of badge) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return FALLBACK_COLORS[hash % FALLBACK_COLORS.length]!;
}
