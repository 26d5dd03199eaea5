import type { JobPayloads } from '../job-names.js';
import type { SearchIndexer } from '../../search/indexer.js';
import type { IndexRequests } from '../../search/index-requests.js';

/** Indexes one file for AI search, then refreshes its folder's description (which lists it). */
export function handleIndexFile(indexer: SearchIndexer, requests: IndexRequests) {
  return async ({ fileId }: JobPayloads['search.index-file']): Promise<void> => {
    const indexed = await indexer.indexFile(fileId);
    if (indexed) await requests.folderChanged(indexed.folderId);
  };
}
