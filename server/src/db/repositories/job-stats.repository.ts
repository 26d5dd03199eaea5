import { sql } from 'kysely';
import type { Db } from '../database.js';

export type JobState = 'queued' | 'delayed' | 'running' | 'failed';

export interface JobCount {
  name: string;
  state: JobState;
  count: number;
}

/** What the jobs table holds, by job name and state, for the metrics scrape. */
export class JobStatsRepository {
  constructor(private readonly db: Db) {}

  async countByNameAndState(now: number): Promise<JobCount[]> {
    // Raw SQL (snake_case): the state is one expression, grouped by its alias on both databases.
    const state = sql<JobState>`case
      when failed_at is not null then 'failed'
      when locked_until is not null and locked_until > ${now} then 'running'
      when run_at > ${now} then 'delayed'
      else 'queued' end`;
    const rows = await this.db
      .selectFrom('job')
      .select((eb) => ['name', state.as('state'), eb.fn.countAll<number | string>().as('n')])
      .groupBy(['name', sql.ref('state')])
      .execute();
    return rows.map((r) => ({ name: r.name, state: r.state, count: Number(r.n) }));
  }
}
