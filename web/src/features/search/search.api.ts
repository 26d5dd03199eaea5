import type { SemanticSearchResponse } from '@nimbus/common';
import { http } from '../../api/client';

/** At most this many folders and this many files of an AI search are shown. */
export const AI_RESULT_LIMIT = 5;

export const searchApi = {
  semantic: (query: string, userId: string) =>
    http.post<SemanticSearchResponse>('/file-service/semantic-search', { query, userId }).then((r) => ({
      folders: (r.data.folders ?? []).slice(0, AI_RESULT_LIMIT),
      files: (r.data.files ?? []).slice(0, AI_RESULT_LIMIT),
    })),
};
