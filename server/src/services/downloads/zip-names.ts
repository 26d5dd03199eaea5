// Separators, control characters, and the colon: `C:name` is a drive-relative path on Windows.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f/\\:]/g;

/** One path segment that no unzip tool can read as a separator, a parent or an absolute path. */
export function safeSegment(name: string): string {
  const cleaned = name.replace(UNSAFE, '_').trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return cleaned.replace(/\./g, '_') || '_';
  return cleaned;
}

/**
 * Names inside one zip folder, made unique the way file managers do: `a.txt`, `a (1).txt`,
 * `a (2).txt`. Compared case-insensitively, since macOS and Windows would merge `A.txt` and `a.txt`.
 */
export class UniqueNames {
  private readonly taken = new Set<string>();

  claim(name: string, isFolder = false): string {
    const safe = safeSegment(name);
    const dot = isFolder ? -1 : safe.lastIndexOf('.');
    const [base, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    let candidate = safe;
    for (let n = 1; this.taken.has(candidate.toLowerCase()); n++) candidate = `${base} (${n})${ext}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
