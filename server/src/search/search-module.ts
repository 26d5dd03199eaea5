import { availableParallelism } from 'node:os';
import type { SearchConfig } from '../config.js';
import type { Db, Dialect } from '../db/database.js';
import { handleIndexBackfill } from '../jobs/handlers/index-backfill.job.js';
import { handleIndexFile } from '../jobs/handlers/index-file.job.js';
import { handleIndexFolder } from '../jobs/handlers/index-folder.job.js';
import type { JobName } from '../jobs/job-names.js';
import type { JobQueue } from '../jobs/queue.js';
import type { JobHandlers } from '../jobs/worker.js';
import type { Clock } from '../services/clock.js';
import type { EncryptedStore } from '../storage/blob-store.js';
import { ComputePool } from './compute/pool.js';
import { IndexSourceRepository } from './db/index-source.repository.js';
import { SearchRepository } from './db/search.repository.js';
import type { Logger } from '../logger.js';
import { FallbackEmbeddingProvider } from './embed/fallback.js';
import { LocalEmbeddingProvider } from './embed/local.js';
import { RemoteEmbeddingProvider } from './embed/remote.js';
import { RemoteCaptioner } from './caption/remote-captioner.js';
import type { IndexRequests } from './index-requests.js';
import { SearchIndexer } from './indexer.js';
import { VectorIndex } from './rank/vector-index.js';
import { PictureSearch } from './rank/picture-search.js';
import { ImageVectors } from './rank/image-vectors.js';
import { PgVectorIndex } from './db/pgvector.js';
import { PictureModel } from './embed/picture-model.js';
import { SemanticSearchService } from './search.service.js';
import type { PeopleMatcher } from './people-match.js';
import type { SmartModelSource } from '../model-store/model-status.js';

export type SearchJobName = 'search.index-file' | 'search.index-folder' | 'search.backfill';

export interface SearchModule {
  service: SemanticSearchService;
  requests: IndexRequests;
  handlers: Pick<JobHandlers, SearchJobName>;
  /** Jobs that occupy a compute thread, and how many threads there are. */
  cpuHeavy: { names: JobName[]; slots: number };
  /** Enqueues the periodic backfill (idempotent across processes). */
  schedule(): Promise<void>;
  close(): Promise<void>;
}

export interface SearchDeps {
  db: Db;
  dialect: Dialect;
  store: EncryptedStore;
  queue: JobQueue;
  clock: Clock;
  log: Logger;
  /** Where drive changes turn into index jobs (the drive services enqueue through it too). */
  requests: IndexRequests;
  /** Compute threads for indexing; one core is left to requests and queries. */
  indexThreads?: number;
  /** Named people, for questions that name someone; absent: names match only as words. */
  people?: PeopleMatcher;
  /** The image–text model's files (model-store/); absent or not ready: the bundled pipeline alone. */
  model?: SmartModelSource;
}

/** AI search: indexing jobs, providers and the query service, wired from the configuration. */
export function createSearch(config: SearchConfig, deps: SearchDeps): SearchModule {
  const slots = deps.indexThreads ?? Math.max(1, availableParallelism() - 1);
  const indexPool = new ComputePool(slots);
  // Queries get a thread of their own, so they never wait behind a page of OCR.
  const queryPool = new ComputePool(1);
  const remote = config.embeddings ? new RemoteEmbeddingProvider(config.embeddings) : null;
  const indexLocal = new LocalEmbeddingProvider(indexPool);
  const queryLocal = new LocalEmbeddingProvider(queryPool);
  const forDocuments = new FallbackEmbeddingProvider(remote ?? indexLocal, indexLocal, deps.log);
  const forQueries = new FallbackEmbeddingProvider(remote ?? queryLocal, queryLocal, deps.log);

  const entries = new SearchRepository(deps.db, deps.dialect);
  const sources = new IndexSourceRepository(deps.db);
  const captioner = config.captions ? new RemoteCaptioner(config.captions, deps.log) : null;
  const pictureModel = new PictureModel(deps.model, config.smartModel, deps.log);
  const indexer = new SearchIndexer(entries, sources, deps.store, indexPool, forDocuments, deps.clock, captioner, pictureModel);
  const requests = deps.requests;
  const pgvector = deps.dialect === 'postgres' ? new PgVectorIndex(deps.db, deps.log) : null;
  const pictures = new PictureSearch(pictureModel, new ImageVectors(new VectorIndex(entries, 'image'), pgvector), queryPool);
  const service = new SemanticSearchService(
    entries,
    new VectorIndex(entries),
    forQueries,
    deps.clock,
    config.enabled,
    pictures,
    deps.people ?? null,
  );

  return {
    service,
    requests,
    handlers: {
      'search.index-file': handleIndexFile(indexer, requests),
      'search.index-folder': handleIndexFolder(indexer, sources, requests),
      'search.backfill': handleIndexBackfill(sources, deps.queue, deps.clock, () => forDocuments.preferredModelId, pictureModel),
    },
    cpuHeavy: { names: ['search.index-file', 'search.index-folder'], slots },
    async schedule() {
      if (!config.enabled) return;
      await deps.queue.enqueue('search.backfill', {}, { dedupeKey: 'search.backfill:0' });
      await pgvector?.available();
    },
    async close() {
      await Promise.all([indexPool.close(), queryPool.close()]);
    },
  };
}
