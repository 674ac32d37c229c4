import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { RateCounter } from '../rateLimits/rateCounter.ts';

/**
 * What the search's tests share (no test of its own). Rate limits are not a search rule; the plain search
 * has none, so the tuned one is tested without.
 */
export class NoRateLimit extends RateCounter {
  override hit(): Promise<void> {
    return Promise.resolve();
  }
}

/** The database, with every prepared query it runs (db/prepared.ts runs them by `executeQuery`) counted. */
export function countingQueries(db: Kysely<Database>, count: () => void): Kysely<Database> {
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (property === 'executeQuery' && typeof value === 'function')
        return (...args: unknown[]) => {
          count();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
