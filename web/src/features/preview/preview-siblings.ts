import type { FileDto } from '@nimbus/common';
import type { Query, QueryClient } from '@tanstack/react-query';
import { fileKeys } from '../../api/query-keys';
import { documentKind } from './document-kind';

/** Pictures and videos, and the documents, text and audio the preview shows as they read or play. */
export const hasPreview = (file: FileDto) => file.metadata.hasThumbnail || file.metadata.isVideo || documentKind(file) !== null;

const isFile = (value: unknown): value is FileDto =>
  typeof value === 'object' && value !== null && typeof (value as FileDto)._id === 'string' && 'metadata' in value;

/** The files of a cached list: one array, a page `{ files }`, or an infinite query's pages of either. */
function filesOf(data: unknown): FileDto[] {
  if (Array.isArray(data)) return data.filter(isFile);
  const { pages, files } = (data ?? {}) as { pages?: unknown; files?: unknown };
  if (Array.isArray(pages)) return pages.flatMap(filesOf);
  if (Array.isArray(files)) return files.filter(isFile);
  return [];
}

const isListKey = (query: Query) => query.queryKey[1] === 'list';

/**
 * The list the file was opened from: among the cached file lists that hold it, those on screen first,
 * plain lists before the quick list, then the most recently fetched.
 */
export function listContaining(queryClient: QueryClient, fileId: string): FileDto[] {
  const candidates = queryClient
    .getQueryCache()
    .findAll({ queryKey: fileKeys.all })
    .map((query) => ({ query, files: filesOf(query.state.data) }))
    .filter(({ files }) => files.some((file) => file._id === fileId));
  candidates.sort(
    (a, b) =>
      Number(b.query.isActive()) - Number(a.query.isActive()) ||
      Number(isListKey(b.query)) - Number(isListKey(a.query)) ||
      b.query.state.dataUpdatedAt - a.query.state.dataUpdatedAt,
  );
  return candidates[0]?.files ?? [];
}

/** The freshest cached copy of a file in any file list, or null when no cached list holds it. */
export function cachedFile(queryClient: QueryClient, fileId: string): FileDto | null {
  let found: FileDto | null = null;
  let updatedAt = -1;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: fileKeys.all })) {
    const file = filesOf(query.state.data).find((candidate) => candidate._id === fileId);
    if (file && query.state.dataUpdatedAt > updatedAt) {
      found = file;
      updatedAt = query.state.dataUpdatedAt;
    }
  }
  return found;
}

/** The previous and next items with a preview (a thumbnail, or a video) around the open file. */
export function previewSiblings(files: FileDto[], fileId: string): { previous: FileDto | null; next: FileDto | null } {
  const previewable = files.filter(hasPreview);
  const index = previewable.findIndex((file) => file._id === fileId);
  if (index < 0) return { previous: null, next: null };
  return { previous: previewable[index - 1] ?? null, next: previewable[index + 1] ?? null };
}
