/**
 * `attachment` with both an ASCII fallback and the exact name as RFC 8187 `filename*`
 * (RFC 6266), so any name — quotes, slashes, RTL marks, emoji — arrives intact and harmless.
 */
export function attachmentHeader(filename: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
