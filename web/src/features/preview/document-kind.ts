import type { FileDto } from '@nimbus/common';

/** How a file that is neither a picture nor a video shows in the preview; null when it does not. */
export type DocumentKind = 'pdf' | 'markdown' | 'json' | 'code' | 'text' | 'audio';

/** Source files by extension, with the highlighter's name for their language. */
const CODE_LANGUAGES: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  rb: 'ruby',
  php: 'php',
  swift: 'swift',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  css: 'css',
  scss: 'css',
  html: 'xml',
  htm: 'xml',
  xml: 'xml',
  svg: 'xml',
  yml: 'yaml',
  yaml: 'yaml',
  sql: 'sql',
  ini: 'ini',
  toml: 'ini',
  diff: 'diff',
  patch: 'diff',
  dockerfile: 'dockerfile',
};

const TEXT_EXTENSIONS = new Set(['txt', 'text', 'log', 'csv', 'tsv', 'conf', 'cfg', 'env', 'rst', 'tex', 'srt', 'vtt']);

export function extensionOf(filename: string): string {
  const lower = filename.toLowerCase();
  if (lower === 'dockerfile') return 'dockerfile';
  const dot = lower.lastIndexOf('.');
  return dot > 0 ? lower.slice(dot + 1) : '';
}

/** The highlighter's language for a source file, null for anything else. */
export function codeLanguage(filename: string): string | null {
  return CODE_LANGUAGES[extensionOf(filename)] ?? null;
}

export function documentKind(file: FileDto): DocumentKind | null {
  const type = file.metadata.contentType;
  const extension = extensionOf(file.filename);
  if (file.metadata.isVideo) return null;
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('image/')) return null;
  if (extension === 'md' || extension === 'markdown' || type === 'text/markdown') return 'markdown';
  if (extension === 'json' || type === 'application/json') return 'json';
  if (codeLanguage(file.filename)) return 'code';
  if (TEXT_EXTENSIONS.has(extension) || type.startsWith('text/')) return 'text';
  return null;
}
