import type { FileDto, FolderDto } from '@nimbus/common';
import type { Clock } from '../../src/services/clock.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

/** Stands still until moved, so index jobs (delayed to let bursts settle) run when a test says. */
export class TestClock implements Clock {
  constructor(private current = Date.now()) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

export interface SearchHarness extends TestApp {
  clock: TestClock;
  /** Runs every index job that is due, as the background worker would. */
  index(): Promise<void>;
}

export async function createSearchApp(config: Parameters<typeof createTestApp>[0] = {}): Promise<SearchHarness> {
  const clock = new TestClock();
  const t = await createTestApp(config, { clock });
  return {
    ...t,
    clock,
    async index() {
      // Folder jobs follow the file jobs that enqueue them: a few rounds settle everything.
      for (let round = 0; round < 4; round++) {
        clock.advance(10_000);
        if ((await t.app.background.drainJobs()) === 0) break;
      }
    },
  };
}

export async function semanticSearch(browser: TestBrowser, query: unknown, userId?: unknown) {
  const response = await browser.post('/file-service/semantic-search', { query, userId });
  return { status: response.statusCode, body: response.json() as { files: FileDto[]; folders: FolderDto[] } };
}
