import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { RateCounter } from '../rateLimits/rateCounter.ts';
import { PlainSearch } from './plainSearch.ts';

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

/** Everyone the plain search shows the user with the widest filters, in its order (each answer held in turn). */
export async function plainOrder(db: Kysely<Database>, clock: Clock, userId: UserId): Promise<number[]> {
  const plain = new PlainSearch(db, clock);
  const order: number[] = [];
  for (;;) {
    const answer = await plain.next(userId, { ageMin: 18, ageMax: 100, gender: 'Any', exclude: [...order] }, 'ru');
    if (answer === null || answer === 'no_profile') return order;
    order.push(answer.profile_id);
  }
}
