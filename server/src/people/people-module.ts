import type { Db } from '../db/database.js';
import type { FileMediaRepository } from '../db/repositories/file-media.repository.js';
import type { FileRepository } from '../db/repositories/file.repository.js';
import { handlePeopleBackfill, handlePeopleScan } from '../jobs/handlers/people.job.js';
import { JOB, type JobName } from '../jobs/job-names.js';
import type { JobQueue } from '../jobs/queue.js';
import type { JobHandlers } from '../jobs/worker.js';
import type { Clock } from '../services/clock.js';
import type { EncryptedStore } from '../storage/blob-store.js';
import { FaceClustering } from './face-clustering.js';
import { FaceDetector } from './face-detector.js';
import { FaceScanService, faceCropBox } from './face-scan.service.js';
import { PeopleNameMatcher } from './people-matcher.js';
import { PeopleRepository } from './people.repository.js';
import { PeopleService } from './people.service.js';

export interface PeopleModule {
  service: PeopleService;
  /** Named people for search. */
  matcher: PeopleNameMatcher;
  handlers: Pick<JobHandlers, 'people.scan' | 'people.backfill'>;
  /** Scans take one CPU slot of their own, so they never hold up thumbnails or indexing. */
  cpuHeavy: { names: JobName[]; slots: number };
  /** Enqueues the backfill of photos never scanned (idempotent across processes). */
  schedule(): Promise<void>;
  close(): Promise<void>;
}

export interface PeopleDeps {
  db: Db;
  files: FileRepository;
  media: FileMediaRepository;
  store: EncryptedStore;
  queue: JobQueue;
  clock: Clock;
  /** The server's encryption key: face crops are sealed under a key derived from it. */
  masterKey: Buffer;
  wake: () => void;
}

/** People in photos: the face scan and its jobs, clustering, the API's service and search's matcher. */
export function createPeople(deps: PeopleDeps): PeopleModule {
  const repo = new PeopleRepository(deps.db);
  const crops = faceCropBox(deps.masterKey);
  const detector = new FaceDetector();
  const scans = new FaceScanService({
    files: deps.files,
    media: deps.media,
    people: repo,
    store: deps.store,
    detector,
    clustering: new FaceClustering(repo, deps.clock),
    crops,
    clock: deps.clock,
  });
  return {
    service: new PeopleService({ repo, files: deps.files, queue: deps.queue, crops, clock: deps.clock, wake: deps.wake }),
    matcher: new PeopleNameMatcher(repo),
    handlers: {
      [JOB.peopleScan]: handlePeopleScan(scans),
      [JOB.peopleBackfill]: handlePeopleBackfill(repo, deps.queue, deps.clock),
    },
    cpuHeavy: { names: [JOB.peopleScan], slots: 1 },
    async schedule() {
      await deps.queue.enqueue(JOB.peopleBackfill, {}, { dedupeKey: `${JOB.peopleBackfill}:0` });
    },
    async close() {
      await detector.close();
    },
  };
}
