import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import type { SearchQuery, SearchResult } from '../../contract/discovery.ts';
import type { RateCounter } from '../rateLimits/index.ts';
import type { CardSearch } from './cardSearch.ts';
import { PlainSearch } from './plainSearch.ts';
import { searchRateWindows } from './rules.ts';
import { SearchService } from './service.ts';

/** Which implementation of CardSearch serves the deck (`SEARCH_ENGINE`): tuned by default. */
export const searchEngines = ['plain', 'tuned'] as const;
export type SearchEngine = (typeof searchEngines)[number];

/**
 * The deck's search, as the rest of the server sees it. `tuned` is SearchService (pools, frontiers, rings);
 * `plain` is the reference PlainSearch (one query of everyone eligible, ranked in memory: slow, for a small
 * site or to rule the tuned engine out when something looks wrong), with the same rate limits in front of it.
 * searchEquivalence.test.ts holds the two to the same answers.
 */
export function createCardSearch(
  engine: SearchEngine,
  db: Kysely<Database>,
  clock: Clock,
  rates: RateCounter,
): CardSearch {
  return engine === 'plain'
    ? new RateLimitedSearch(new PlainSearch(db, clock), rates)
    : new SearchService(db, clock, rates);
}

/** The search limits (rules.ts) in front of an engine that does not count them itself (the tuned one counts in its first read). */
class RateLimitedSearch implements CardSearch {
  constructor(
    private readonly inner: CardSearch,
    private readonly rates: RateCounter,
  ) {}

  async next(userId: UserId, query: SearchQuery, language: Language): Promise<SearchResult | null | 'no_profile'> {
    await this.rates.hit(
      `search:${userId}`,
      searchRateWindows,
      'search_rate_limited',
      'Too many searches. Please slow down.',
    );
    return this.inner.next(userId, query, language);
  }
}
