import type { JobPayloads } from '../job-names.js';
import type { IndexSourceRepository } from '../../search/db/index-source.repository.js';
import type { SearchIndexer } from '../../search/indexer.js';
import type { IndexRequests } from '../../search/index-requests.js';

/** Indexes a folder by its name and contents; after a rename its files, whose words include it, follow. */
export function handleIndexFolder(indexer: SearchIndexer, sources: IndexSourceRepository, requests: IndexRequests) {
  return async ({ folderId, cascade }: JobPayloads['search.index-folder']): Promise<void> => {
    await indexer.indexFolder(folderId);
    if (cascade) for (const fileId of await sources.childFileIds(folderId)) await requests.fileChanged(fileId);
  };
}
