/** The most people a pool holds; beyond it the worst ranked are dropped and the bound drawn in. */
export const poolSize = 200;
/**
 * How long a pool lasts for someone with a position. Newcomers and changes need no expiry (each search
 * asks the database what changed inside the pool's bound since it was made); the limit only keeps that
 * question small, since it reads every change near the caller since then.
 */
export const poolTtlMs = 6 * 60 * 60_000;
/** Without a position there is no bound to ask about, so such a pool is simply recomputed this often. */
export const unplacedPoolTtlMs = 2 * 60_000;
/** Users whose pools are kept (least recently used dropped first): at most 4 kB each, packed. */
export const poolUsers = 5000;

export interface PooledCandidate {
  id: number;
  /** Distance in the ordering's flat metric, which the pool's bound is measured in. */
  flat: number;
  /** Great-circle distance minus the bounded boosts; the pool is kept in this order, best first. */
  score: number;
}

/**
 * What one search learned about a user's neighbourhood: the people it ranked, best first, and the bound
 * within which it saw everyone. Nobody nearer than `boundKm` (in the ordering's flat metric) could be
 * shown, apart from the pooled people, as of `watermark` (the newest `profiles.search_changed_at` then).
 * A later search re-checks the pooled people, asks only about people changed since the watermark inside
 * the bound, and, once the pool is used up, scans just beyond the bound: a heavy swiper never again
 * pays for the thousands of people around them they have already swiped.
 */
export interface Pool {
  key: string;
  expiresAt: number;
  candidates: PooledCandidate[];
  boundKm: number;
  watermark: string | null;
}

/** A pool as kept between searches: the candidates packed in typed arrays (20 bytes each, not ~90). */
interface StoredPool extends Omit<Pool, 'candidates'> {
  ids: Int32Array;
  flat: Float64Array;
  score: Float64Array;
}

function pack(pool: Pool): StoredPool {
  const { candidates, ...rest } = pool;
  return {
    ...rest,
    ids: Int32Array.from(candidates, (c) => c.id),
    flat: Float64Array.from(candidates, (c) => c.flat),
    score: Float64Array.from(candidates, (c) => c.score),
  };
}

function unpack(stored: StoredPool): Pool {
  const { ids, flat, score, ...rest } = stored;
  return { ...rest, candidates: Array.from(ids, (id, i) => ({ id, flat: flat[i] as number, score: score[i] as number })) };
}

/**
 * Pools per user, per process (several processes each keep their own). A pool is only a hint: every
 * person taken from it is checked against all the rules again before being shown, so a swipe, block,
 * ban or private mode since the pool was made can never leak through it. `take` hands out a copy; what
 * a search learned goes back with `put`.
 */
export class CandidatePools {
  private readonly pools = new Map<number, StoredPool>();

  constructor(
    private readonly now: () => number,
    private readonly maxUsers = poolUsers,
  ) {}

  /** The pool for this search, or null when there is none for these exact filters. */
  take(meId: number, key: string): Pool | null {
    const stored = this.pools.get(meId);
    if (!stored) return null;
    if (stored.key !== key || stored.expiresAt <= this.now()) {
      this.pools.delete(meId);
      return null;
    }
    // Re-inserted: Map order is the LRU order.
    this.pools.delete(meId);
    this.pools.set(meId, stored);
    return unpack(stored);
  }

  /** A new pool, living `ttlMs` from now. */
  keep(meId: number, pool: Omit<Pool, 'expiresAt'>, ttlMs: number): void {
    this.put(meId, { ...pool, expiresAt: this.now() + ttlMs });
  }

  /** A pool taken and updated (or made by `keep`), stored as the user's newest. */
  put(meId: number, pool: Pool): void {
    this.pools.delete(meId);
    if (this.maxUsers === 0) return;
    this.pools.set(meId, pack(pool));
    while (this.pools.size > this.maxUsers) {
      const oldest = this.pools.keys().next().value;
      if (oldest === undefined) break;
      this.pools.delete(oldest);
    }
  }

  /** The caller swiped or blocked this person: not worth checking again. */
  forget(meId: number, targetId: number): void {
    const stored = this.pools.get(meId);
    if (!stored?.ids.includes(targetId)) return;
    const pool = unpack(stored);
    this.pools.set(meId, pack({ ...pool, candidates: pool.candidates.filter((c) => c.id !== targetId) }));
  }

  drop(meId: number): void {
    this.pools.delete(meId);
  }

  get size(): number {
    return this.pools.size;
  }
}

/**
 * The pool within its size: the worst ranked beyond `poolSize` are dropped, and the bound is drawn in to
 * the nearest of them, so nobody dropped is inside it (a later scan beyond the bound meets them again).
 */
export function capped<P extends Pick<Pool, 'candidates' | 'boundKm'>>(pool: P): P {
  if (pool.candidates.length <= poolSize) return pool;
  const dropped = pool.candidates.slice(poolSize);
  const boundKm = Math.min(pool.boundKm, ...dropped.map((c) => c.flat));
  return { ...pool, candidates: pool.candidates.slice(0, poolSize), boundKm };
}

/**
 * Candidates of both lists in one ranking, best first. Ties are broken as a fresh scan's query breaks them
 * (nearer, then lower id), not by which list someone came from: a newcomer in the caller's own grid cell
 * ties with everyone else there and must take the same place a new search would give them.
 */
export function mergeRanked(pool: PooledCandidate[], added: PooledCandidate[]): PooledCandidate[] {
  const seen = new Set(added.map((c) => c.id));
  return [...pool.filter((c) => !seen.has(c.id)), ...added].sort((a, b) => {
    if (a.score !== b.score) return a.score < b.score ? -1 : 1;
    if (a.flat !== b.flat) return a.flat < b.flat ? -1 : 1;
    return a.id - b.id;
  });
}
