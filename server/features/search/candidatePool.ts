import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isForeignKeyViolation } from '../../../db/errors.ts';
import type { Database, ProfileId } from '../../../db/schema.ts';
import type { SearchPoolRow } from './poolUpsert.ts';
import { compareRanked } from './ranking.ts';
import { deleteSearchPool, findSearchPool, upsertSearchPool, type StoredPoolRow } from './repository.ts';

/** The most people a pool holds; beyond it the worst ranked are dropped and the bound drawn in. */
export const poolSize = 200;
/**
 * How long a pool lasts for someone with a position. Newcomers and changes need no expiry (each search
 * asks the database what changed inside the pool's bound since it was made); the limit keeps the ranking
 * fresh (boosts change unannounced) and, after it, only the frontier is trusted (Frontier).
 */
export const poolTtlMs = 6 * 60 * 60_000;
/**
 * How long after a fresh scan its frontier may be carried on (service.ts): each search from a frontier keeps
 * it in its new pool, so without a limit someone the disc wrongly leaves out (written with the triggers off,
 * say, by a restore) would never be read again; at most a week, then the neighbourhood is scanned whole once
 * more. An expired pool is kept as long (the cleanup job), since its frontier is what it is kept for.
 */
export const frontierMaxAgeMs = 7 * 86_400_000;
/** Without a position there is no bound to ask about, so such a pool is simply recomputed this often. */
export const unplacedPoolTtlMs = 2 * 60_000;

export interface PooledCandidate {
  id: number;
  /**
   * The ranking distance (ranking.ts rankingKm: the flat metric stretched by the age gap), which the pool's
   * bound is measured in and its tier read from (compareRanked); Infinity without a position.
   */
  flat: number;
  /** The ranking score (ranking.ts scoreOf); the pool is kept tier by tier in this order, best first (compareRanked). */
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
  /**
   * Changes this pool already re-checked (profile id to its `search_changed_at`) that the change query still
   * reads back: it reads a minute before the watermark (searchChanges.ts), so after a burst every search in
   * that minute re-checked the same hundreds of people. A person read back with the same stamp has not
   * changed since. Absent: none.
   */
  checked?: ReadonlyMap<number, string>;
  /**
   * PostgreSQL only (null or absent elsewhere): the oldest transaction still running when a search read the
   * watermark (`pg_snapshot_xmin`, named by the server's start: `<start>/<number>`), kept with the watermark.
   * A row version written by a transaction below it had committed before that search began, so its change
   * query saw it, inside the bound of then (never smaller than the bound now), and the search dealt with it:
   * re-checked, or swiped, or beyond the bound it drew in. Read back inside the slack minute, such a row
   * needs no swipe probe (searchChanges.ts changedNear); after a burst near a heavy swiper that was
   * 1,500 probes on every search of the minute. Kept when the watermark does not move: an older horizon
   * only leaves out fewer rows.
   */
  horizon?: string | null;
  /**
   * When the fresh scan its knowledge goes back to was made (ISO): a pool made beyond an expired pool's
   * frontier, or beyond a used-up pool's bound, keeps it. Null: unknown (a pool from before it was kept).
   */
  scannedAt: string | null;
}

/**
 * What a pool still proves once it expired: nobody nearer than `emptyKm` (flat metric) passed every rule as
 * of `watermark`. Blocks are never undone, a swipe only by an undo that stamps its person, and every other change that can let someone in stamps
 * `profiles.search_changed_at`, so the change query (searchChanges.ts) says what may have changed inside
 * since; a heavy swiper's first search of the day then reads only the ring beyond what she has swiped.
 */
export interface Frontier {
  emptyKm: number;
  watermark: string;
  /** Pool.scannedAt: a frontier renewed search after search must not hide a mistake for ever (service.ts). */
  scannedAt: string | null;
  /**
   * How far a scan beyond `emptyKm` probably reads to rank `wanted` people: the pooled people's own spread,
   * with room. Only where the scan's first ring pass stops (service.ts readRing); nothing relies on it.
   */
  hintKm: number | null;
}

/**
 * The frontier of a pool (see Frontier): its bound, or the nearest pooled person if nearer (a pooled person
 * is someone who passed). Null without a watermark (a caller without a position has no bound).
 */
export function frontierOf(
  pool: Pick<Pool, 'candidates' | 'boundKm' | 'watermark' | 'scannedAt'>,
  wanted: number,
): Frontier | null {
  if (pool.watermark === null) return null;
  const flats = pool.candidates.map((c) => c.flat).sort((a, b) => a - b);
  const emptyKm = Math.min(pool.boundKm, flats[0] ?? Number.POSITIVE_INFINITY);
  // Fewer pooled than wanted: the scan found nobody else who passed inside its bound, so the next one reads
  // past the bound anyway, and a first pass stopped short of it only adds a pass (a third of a heavy
  // swiper's day's first searches read their ring in two passes, bench/firstSearch.ts).
  const spread = flats.length >= wanted ? flats[wanted - 1] : undefined;
  // Half as far again as the pooled people reached beyond it: a ring holding them and the next few.
  const hintKm =
    spread === undefined || !Number.isFinite(spread) || spread <= emptyKm ? null : emptyKm + (spread - emptyKm) * 1.5;
  return { emptyKm, watermark: pool.watermark, scannedAt: pool.scannedAt, hintKm };
}

/** Bytes per pooled person in the stored blob: an int32 id, then float64 flat distance and score. */
const packedBytes = 20;

/** The candidates as stored: all ids, then all flat distances, then all scores, little-endian (20 bytes each). */
export function packCandidates(candidates: PooledCandidate[]): Buffer {
  const n = candidates.length;
  // A Buffer, not a bare Uint8Array: what both drivers bind as a blob (bytea).
  const bytes = Buffer.alloc(n * packedBytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  candidates.forEach((c, i) => {
    view.setInt32(i * 4, c.id, true);
    view.setFloat64(n * 4 + i * 8, c.flat, true);
    view.setFloat64(n * 12 + i * 8, c.score, true);
  });
  return bytes;
}

export function unpackCandidates(bytes: Uint8Array): PooledCandidate[] {
  const n = Math.floor(bytes.byteLength / packedBytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: n }, (_, i) => ({
    id: view.getInt32(i * 4, true),
    flat: view.getFloat64(n * 4 + i * 8, true),
    score: view.getFloat64(n * 12 + i * 8, true),
  }));
}

/** Writes a pool's row (the whole row, as the store's upsert would) within a statement of the caller's own. */
export type PoolCarrier = (row: SearchPoolRow) => Promise<void>;

/** Where the pools live between searches. */
export interface PoolStore {
  /**
   * The pool for this search, or null when there is none for these exact filters (or it expired). `prefetched`:
   * the row as the caller already read it (findSearchStart), null when there is none; read here if absent.
   */
  take(meId: ProfileId, key: string, prefetched?: StoredPoolRow | null): Promise<Pool | null>;
  /** The frontier of the user's expired pool under these exact filters (see Frontier), or null. `prefetched` as for `take`. */
  frontier(meId: ProfileId, key: string, wanted: number, prefetched?: StoredPoolRow | null): Promise<Frontier | null>;
  /**
   * A new pool, living `ttlMs` from now. `carry`, when given, writes its row instead of the store's own upsert,
   * in a statement the caller makes anyway (service.ts: the card's read); a store that does not take it
   * leaves it uncalled, and the caller then makes that statement itself.
   */
  keep(meId: ProfileId, pool: Omit<Pool, 'expiresAt'>, ttlMs: number, carry?: PoolCarrier): Promise<void>;
  /** A pool taken and updated (or made by `keep`), stored as the user's newest. */
  put(meId: ProfileId, pool: Pool): Promise<void>;
  drop(meId: ProfileId): Promise<void>;
}

type Stored = Omit<Pool, 'candidates' | 'checked' | 'horizon'> & { packed: Buffer; checked: string | null };

/**
 * The checked changes and the horizon as stored: JSON `{"d": digest, "c": [[id, stamp], ...], "h": horizon}`,
 * null when there are neither. The digest of the rest of the row (`rowDigest`) ties them to the pool they
 * were learned for: a process of an earlier version, which knows nothing of them, writes its own pool (its
 * own people, perhaps with the same watermark) and leaves them on the row, where they must not count.
 */
function packChecked(
  checked: ReadonlyMap<number, string> | undefined,
  horizon: string | null | undefined,
  digest: () => string,
): string | null {
  if (!checked?.size && (horizon ?? null) === null) return null;
  return JSON.stringify({ d: digest(), c: [...(checked ?? [])], ...(horizon ? { h: horizon } : {}) });
}

/** What the stored row says of its pool, but for the checked changes: key, bound, expiry, watermark and people. */
function rowDigest(row: {
  key: string;
  boundKm: number;
  expiresAt: string;
  watermark: string | null;
  packed: Uint8Array;
}): string {
  return createHash('sha1')
    .update(JSON.stringify([row.key, row.boundKm, row.expiresAt, row.watermark]))
    .update(row.packed)
    .digest('base64');
}

/** `digest` is asked for only when something is stored: hashing the row costs every search on SQLite (no horizon) nothing then. */
function unpackChecked(
  stored: string | null,
  digest: () => string,
): { checked: Map<number, string>; horizon: string | null } {
  const none = { checked: new Map<number, string>(), horizon: null };
  if (stored === null) return none;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (typeof parsed !== 'object' || parsed === null || !('d' in parsed) || !('c' in parsed)) return none;
    if (!Array.isArray(parsed.c) || parsed.d !== digest()) return none;
    const pairs: unknown[] = parsed.c;
    const horizon = 'h' in parsed && typeof parsed.h === 'string' ? parsed.h : null;
    return {
      checked: new Map(
        pairs.filter(
          (p): p is [number, string] => Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'string',
        ),
      ),
      horizon,
    };
  } catch {
    // Only a hint: without it, the changes are re-checked again.
    return none;
  }
}

/**
 * Pools per profile in the database (`search_pools`), so every web process continues the same frontier
 * and a restart forgets nothing: one read by primary key per search, one upsert when the search changed
 * the pool. A pool is only a hint: every person taken from it is checked against all the rules again
 * before being shown, so a swipe, block, ban or private mode since the pool was made can never leak
 * through it, and a swiped person needs no write of their own (the next search's re-check, one query it
 * makes anyway, drops them). Two searches of one user at once (two tabs) each work on their own copy;
 * the last to finish is stored. `take` hands out a copy; what a search learned goes back with `put`.
 */
export class CandidatePools implements PoolStore {
  /** What each handed-out pool was when read, so that putting it back unchanged writes nothing. */
  private readonly taken = new WeakMap<Pool, Stored>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  async take(meId: ProfileId, key: string, prefetched?: StoredPoolRow | null): Promise<Pool | null> {
    const row = prefetched === undefined ? await findSearchPool(this.db, meId) : prefetched;
    if (!row) return null;
    const expiresAt = Date.parse(row.expires_at);
    // Another key's or an expired pool is left for the next `keep` to overwrite (or the cleanup job).
    if (row.pool_key !== key || expiresAt <= this.now()) return null;
    const stored: Stored = {
      key,
      expiresAt,
      boundKm: row.bound_km,
      watermark: row.watermark,
      packed: Buffer.from(row.candidates),
      checked: row.checked_changes,
      scannedAt: row.scanned_at,
    };
    const digest = () =>
      rowDigest({
        key: row.pool_key,
        boundKm: row.bound_km,
        expiresAt: row.expires_at,
        watermark: row.watermark,
        packed: row.candidates,
      });
    const { checked, horizon } = unpackChecked(row.checked_changes, digest);
    const pool: Pool = {
      key,
      expiresAt,
      boundKm: row.bound_km,
      watermark: row.watermark,
      candidates: unpackCandidates(row.candidates),
      checked,
      horizon,
      scannedAt: row.scanned_at,
    };
    this.taken.set(pool, stored);
    return pool;
  }

  async frontier(
    meId: ProfileId,
    key: string,
    wanted: number,
    prefetched?: StoredPoolRow | null,
  ): Promise<Frontier | null> {
    const row = prefetched === undefined ? await findSearchPool(this.db, meId) : prefetched;
    if (!row || row.pool_key !== key || Date.parse(row.expires_at) > this.now()) return null;
    return frontierOf(
      {
        candidates: unpackCandidates(row.candidates),
        boundKm: row.bound_km,
        watermark: row.watermark,
        scannedAt: row.scanned_at,
      },
      wanted,
    );
  }

  async keep(meId: ProfileId, pool: Omit<Pool, 'expiresAt'>, ttlMs: number, carry?: PoolCarrier): Promise<void> {
    await this.put(meId, { ...pool, expiresAt: this.now() + ttlMs }, carry);
  }

  async put(meId: ProfileId, pool: Pool, carry?: PoolCarrier): Promise<void> {
    const packed = packCandidates(pool.candidates);
    const expiresAt = new Date(pool.expiresAt).toISOString();
    const checked = packChecked(pool.checked, pool.horizon, () =>
      rowDigest({ key: pool.key, boundKm: pool.boundKm, expiresAt, watermark: pool.watermark, packed }),
    );
    const was = this.taken.get(pool);
    if (was && sameStored(was, { ...pool, packed, checked })) return;
    const row: SearchPoolRow = {
      profile_id: meId,
      pool_key: pool.key,
      expires_at: expiresAt,
      bound_km: pool.boundKm,
      watermark: pool.watermark,
      candidates: packed,
      checked_changes: checked,
      scanned_at: pool.scannedAt,
    };
    try {
      await (carry ? carry(row) : upsertSearchPool(this.db, row));
    } catch (error) {
      // The profile was deleted while its last search ran: there is nobody to keep a pool for.
      if (!isForeignKeyViolation(error)) throw error;
    }
  }

  async drop(meId: ProfileId): Promise<void> {
    await deleteSearchPool(this.db, meId);
  }
}

function sameStored(a: Stored, b: Stored): boolean {
  return (
    a.key === b.key &&
    a.expiresAt === b.expiresAt &&
    a.boundKm === b.boundKm &&
    a.watermark === b.watermark &&
    a.checked === b.checked &&
    a.scannedAt === b.scannedAt &&
    a.packed.equals(b.packed)
  );
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
 * Candidates of both lists in one ranking, best first: tier by tier, then by score (ranking.ts compareRanked),
 * so someone merged in a nearer tier than the pool's people goes ahead of them, as a fresh scan puts them.
 * Ties are broken as a fresh scan's query breaks them (nearer, then lower id), not by which list someone
 * came from: a newcomer in the caller's own grid cell ties with everyone else there and must take the same
 * place a new search would give them.
 */
export function mergeRanked(pool: PooledCandidate[], added: PooledCandidate[]): PooledCandidate[] {
  const seen = new Set(added.map((c) => c.id));
  return [...pool.filter((c) => !seen.has(c.id)), ...added].sort((a, b) => {
    const ranked = compareRanked(a, b);
    if (ranked !== 0) return ranked;
    if (a.flat !== b.flat) return a.flat < b.flat ? -1 : 1;
    return a.id - b.id;
  });
}
