import type { SearchQuery, SearchResult } from '../../contract/discovery.ts';
import type { UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';

/**
 * The next card for a user: the person to show, null when nobody is left, 'no_profile' when the caller has
 * no profile yet. Two implementations: SearchService (tuned: growing boxes, a per-user pool, re-checks of
 * what changed) and PlainSearch (one plain query and the rules in memory), which the property test
 * searchEquivalence.test.ts holds the tuned one to.
 */
export interface CardSearch {
  /** `language`: the reader's, in which the card names the person's city. */
  next(userId: UserId, query: SearchQuery, language: Language): Promise<SearchResult | null | 'no_profile'>;
}
