/**
 * The search's rules. The spec leaves the enforced limits to us; they live here, by name, and every one
 * is enforced by the server (the like allowance is in swipes/rules.ts).
 */

/** Anti-scraping: search calls per user. */
export const searchPerMinute = 60;
export const searchPerDay = 1000;
/** The same limits as the rate counter's windows. */
export const searchRateWindows = [
  { seconds: 60, limit: searchPerMinute },
  { seconds: 86_400, limit: searchPerDay },
] as const;

/** The ranking's constants (distance, age, activity, boosts) are in ranking.ts. */

/** How many of the nearest candidates the boosts are allowed to reorder. */
export const rankingPoolSize = 100;

/**
 * Half-heights (degrees of latitude) of the search boxes tried in turn, nearest first. The first (about
 * 2 km) answers most people in a city after reading a few dozen rows; a 5 km first box read hundreds and
 * sorted them (bench/discovery.ts). An empty small box costs one cheap indexed query.
 */
export const searchBoxSteps = [0.02, 0.05, 0.25, 1, 4, 16, 180] as const;

/** Pooled candidates re-checked per search in one query (the first still valid is shown). */
export const recheckBatch = 3;
/** Batches tried before a pool whose people keep failing their re-check is given up for a fresh scan. */
export const recheckBatches = 3;
