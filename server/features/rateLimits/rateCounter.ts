import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { tooManyRequests } from '../../errors.ts';

export interface RateWindow {
  seconds: number;
  limit: number;
}

/**
 * Fixed-window counters in the database, so limits hold across restarts and across server processes.
 * One upsert per window and call; old windows are left for the cleanup job.
 */
export class RateCounter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Counts this call in every window and refuses with 429 (and Retry-After) when one is over its limit. */
  async hit(key: string, windows: readonly RateWindow[], code: string, message: string): Promise<void> {
    const now = this.clock.now().getTime();
    for (const window of windows) {
      const start = Math.floor(now / 1000 / window.seconds) * window.seconds;
      const row = await this.db
        .insertInto('rate_counters')
        .values({ key: `${key}:${window.seconds}`, window_start: new Date(start * 1000).toISOString(), count: 1 })
        .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_counters.count', '+', 1) })))
        .returning('count')
        .executeTakeFirstOrThrow();
      if (row.count > window.limit) throw tooManyRequests(code, message, start + window.seconds - now / 1000);
    }
  }
}
