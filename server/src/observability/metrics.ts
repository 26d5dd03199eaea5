import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobCount } from '../db/repositories/job-stats.repository.js';
import type { JobHandlers } from '../jobs/worker.js';

/** Bytes of user content moving through the server, counted as they stream. */
export interface TransferMeter {
  uploaded(bytes: number): void;
  downloaded(bytes: number): void;
}

export interface MetricsOptions {
  /** Process metrics (CPU, memory, event loop, GC) start observers; only servers that export turn them on. */
  processMetrics: boolean;
  /** The jobs table by name and state, read on each scrape. */
  countJobs: () => Promise<JobCount[]>;
}

/** Index = first digit of the status code: no string is built per request. */
const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
const UNMATCHED_ROUTE = '(unmatched)';
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The server's Prometheus metrics, in a registry of its own: prom-client's default registry is
 * global, and tests build several apps in one process.
 */
export class Metrics implements TransferMeter {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'nimbus_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status class; _count is the request rate',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  private readonly uploadBytes = new Counter({
    name: 'nimbus_upload_bytes_total',
    help: 'Bytes of file content received (uploads, resumable pieces, WebDAV, drop links)',
    registers: [this.registry],
  });
  private readonly downloadBytes = new Counter({
    name: 'nimbus_download_bytes_total',
    help: 'Bytes of file content sent (downloads, previews, thumbnails, zips, WebDAV, shared links)',
    registers: [this.registry],
  });
  private readonly jobFailures = new Counter({
    name: 'nimbus_job_failures_total',
    help: 'Failed job attempts by job name; outcome retry (will run again) or failed (out of attempts)',
    labelNames: ['name', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(options: MetricsOptions) {
    const countJobs = options.countJobs;
    new Gauge({
      name: 'nimbus_jobs',
      help: 'Jobs in the jobs table by name and state (queued, delayed, running, failed)',
      labelNames: ['name', 'state'] as const,
      registers: [this.registry],
      // Read on scrape: the table is shared by every server process, so no one process counts it.
      async collect() {
        const counts = await countJobs();
        this.reset();
        for (const { name, state, count } of counts) this.set({ name, state }, count);
      },
    });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  observeRequest(method: string, route: string | undefined, statusCode: number, seconds: number): void {
    this.requests.observe(
      { method, route: route ?? UNMATCHED_ROUTE, status_class: STATUS_CLASSES[Math.trunc(statusCode / 100)] ?? '0xx' },
      seconds,
    );
  }

  uploaded(bytes: number): void {
    if (bytes > 0) this.uploadBytes.inc(bytes);
  }

  downloaded(bytes: number): void {
    if (bytes > 0) this.downloadBytes.inc(bytes);
  }

  /** The same handlers, each failure counted before the worker sees it. */
  countJobFailures(handlers: JobHandlers): JobHandlers {
    const counted: Record<string, JobHandlers[keyof JobHandlers]> = {};
    for (const [name, handler] of Object.entries(handlers) as [keyof JobHandlers, JobHandlers[keyof JobHandlers]][]) {
      const run = handler as (payload: unknown, job: Parameters<typeof handler>[1]) => Promise<void>;
      counted[name] = (async (payload: unknown, job: Parameters<typeof handler>[1]) => {
        try {
          await run(payload, job);
        } catch (err) {
          this.jobFailures.inc({ name, outcome: job.attempts >= job.maxAttempts ? 'failed' : 'retry' });
          throw err;
        }
      }) as JobHandlers[keyof JobHandlers];
    }
    return counted as JobHandlers;
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
