import type { CandidateRow } from './candidates.ts';

/** How many ranked candidates one search keeps for the next cards. */
export const poolSize = 20;
/** A pool is recomputed after this long, so new people nearby and changed boosts are seen soon. */
export const poolTtlMs = 2 * 60_000;
/** Users whose pools are kept (least recently used dropped first): ~20 rows each, a few MB in all. */
export const poolUsers = 5000;

export interface PooledCandidate {
  row: CandidateRow;
  km: number;
}

interface Pool {
  key: string;
  expiresAt: number;
  candidates: PooledCandidate[];
}

/**
 * The next few people a search found for a user, best first. One search ranks the hundred nearest and
 * shows one; keeping the next ones means the following cards cost a re-check of one person instead of a
 * scan of the neighbourhood (a heavy swiper's neighbourhood is mostly people already swiped). A pool is
 * only a hint: every person taken from it is checked against all the rules again before being shown, so
 * a swipe, block, ban or private mode since the pool was made can never leak through it. Per process;
 * several processes just each keep their own.
 */
export class CandidatePools {
  private readonly pools = new Map<number, Pool>();

  constructor(
    private readonly now: () => number,
    private readonly maxUsers = poolUsers,
  ) {}

  /** The pooled candidates for this search, or null when there is none for these exact filters. */
  take(meId: number, key: string): PooledCandidate[] | null {
    const pool = this.pools.get(meId);
    if (!pool) return null;
    if (pool.key !== key || pool.expiresAt <= this.now() || pool.candidates.length === 0) {
      this.pools.delete(meId);
      return null;
    }
    // Re-inserted: Map order is the LRU order.
    this.pools.delete(meId);
    this.pools.set(meId, pool);
    return pool.candidates;
  }

  keep(meId: number, key: string, candidates: PooledCandidate[]): void {
    this.pools.delete(meId);
    if (candidates.length === 0) return;
    this.pools.set(meId, { key, expiresAt: this.now() + poolTtlMs, candidates: candidates.slice(0, poolSize) });
    while (this.pools.size > this.maxUsers) {
      const oldest = this.pools.keys().next().value;
      if (oldest === undefined) break;
      this.pools.delete(oldest);
    }
  }

  /** The caller swiped or blocked this person: not worth re-checking. */
  forget(meId: number, targetId: number): void {
    const pool = this.pools.get(meId);
    if (!pool) return;
    pool.candidates = pool.candidates.filter((c) => c.row.id !== targetId);
  }

  drop(meId: number): void {
    this.pools.delete(meId);
  }

  get size(): number {
    return this.pools.size;
  }
}
