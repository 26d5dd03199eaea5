import { capWords } from './analysis.js';

/** Text-like formats (plain, Markdown, CSV, JSON, code…): read as UTF-8. */
export function isTextLike(contentType: string, filename: string): boolean {
  return (
    contentType.startsWith('text/') ||
    /^application\/(json|xml|x-yaml|yaml|x-sh|javascript|rtf|x-tex|sql)\b/.test(contentType) ||
    /\.(txt|md|markdown|csv|tsv|json|xml|ya?ml|log|ini|conf|tex|rtf|html?)$/i.test(filename)
  );
}

export function readPlain(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  // Markup and code punctuation would only add noise words.
  return capWords(text.replace(/<[^>]{0,200}>/g, ' ').replace(/[{}[\]<>"=;|\\]/g, ' '));
}
