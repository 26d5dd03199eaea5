import { z } from 'zod';
import type { FileDto } from './files.js';
import type { FolderDto } from './folders.js';

/** Longest AI search query: a long sentence; anything longer is not a query. */
export const SEMANTIC_QUERY_MAX = 500;

/** POST /file-service/semantic-search. `userId` is sent by the web app and ignored by the server. */
export const semanticSearchBody = z.object({
  query: z
    .string()
    .max(SEMANTIC_QUERY_MAX)
    .transform((v) => v.trim())
    .pipe(z.string().min(1, 'Query is empty')),
  userId: z.string().max(64).optional(),
});
export type SemanticSearchBody = z.input<typeof semanticSearchBody>;

/** At most 5 files and 5 folders, best first. */
export interface SemanticSearchResponse {
  files: FileDto[];
  folders: FolderDto[];
}
