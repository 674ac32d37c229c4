import { PostgresAdapter, sql, type ExpressionBuilder, type Kysely, type QueryCreator } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { tooManyRequests } from '../../errors.ts';

export interface RateWindow {
  seconds: number;
  limit: number;
}

/**
 * One counter row a call increments: its key (with the window's length), the start of its window, and the
 * start of the window before it (whose count is read back beside the new one).
 */
export interface RateRow {
  key: string;
  window_start: string;
  previous_start: string;
}

/** A row's count after the call, and the count of the key's previous window. */
export interface RateCount {
  count: number;
  previous: number;
}

/**
 * A call's count, planned: the rows to increment, and the check of the counts read back. A feature may send
 * the rows with a statement of its own (search: with the read it starts from, one round trip on PostgreSQL).
 */
export interface RateHit {
  readonly rows: readonly RateRow[];
  /** Refuses with 429 (and Retry-After) when a count read back is over its window's limit. */
  check(counts: ReadonlyMap<string, RateCount>): void;
}

/**
 * Counters in the database, so limits hold across clean restarts and across server processes (on
 * PostgreSQL the table is unlogged: a crash of the database server empties it, see docs/operations.md). Each limit
 * holds over a sliding window, estimated as Cloudflare and nginx do: this window's count plus the previous
 * window's, weighted by the share of it the sliding window still covers. Fixed windows alone let twice the
 * limit through across a boundary (an audit got 120 searches through in 2.3 s against 60 a minute); with the
 * weight, a burst at the end of one window leaves the next one only what the burst has not used of the
 * sliding window (the 61st search in any minute is refused). Each call reads the previous count as it
 * counts (one statement, atomic as before: each call gets its own count, so parallel calls cannot all pass
 * one). Old windows are left for the cleanup job (which keeps two of the longest, a day: jobs/cleanupExpired.ts).
 */
export class RateCounter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts this call in every window and refuses with 429 (and Retry-After) when one is over its limit.
   * All windows in one statement: one commit per call however many windows (it sits on every search). A call
   * counts in every window, refused or not, so hammering while limited does not make the longer window forget.
   * Answers the rows counted, for `refund`.
   */
  async hit(key: string, windows: readonly RateWindow[], code: string, message: string): Promise<readonly RateRow[]> {
    const planned = this.plan(key, windows, code, message);
    if (!planned) return [];
    planned.check(await countRates(this.db, planned.rows));
    return planned.rows;
  }

  /**
   * Takes back a call `hit` counted, for a limit that counts only failures (a wrong code): the attempt is
   * counted before it is checked, so parallel attempts cannot all pass one count, and given back when it
   * turns out right. Never below zero.
   */
  async refund(rows: readonly RateRow[]): Promise<void> {
    for (const row of rows) {
      await this.db
        .updateTable('rate_counters')
        .set((eb) => ({ count: eb('count', '-', 1) }))
        .where('key', '=', row.key)
        .where('window_start', '=', row.window_start)
        .where('count', '>', 0)
        .execute();
    }
  }

  /** What `hit` does, for a caller that sends the rows itself (countRates, or in a statement of its own); null: nothing to count. */
  plan(key: string, windows: readonly RateWindow[], code: string, message: string): RateHit | null {
    if (windows.length === 0) return null;
    const now = this.clock.now().getTime() / 1000;
    // One row per window length (PostgreSQL refuses an upsert touching the same row twice): the tightest limit.
    const bySeconds = new Map<number, RateWindow>();
    for (const window of windows)
      if ((bySeconds.get(window.seconds)?.limit ?? Infinity) > window.limit) bySeconds.set(window.seconds, window);
    const counted = [...bySeconds.values()].map((window) => {
      const start = Math.floor(now / window.seconds) * window.seconds;
      return { window, start, key: `${key}:${window.seconds}` };
    });
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
    return {
      rows: counted.map((c) => ({
        key: c.key,
        window_start: iso(c.start),
        previous_start: iso(c.start - c.window.seconds),
      })),
      check(counts) {
        for (const c of counted) {
          const got = counts.get(c.key) ?? { count: 0, previous: 0 };
          const wait = slidingWait(got, c.window, now - c.start);
          if (wait !== null) throw tooManyRequests(code, message, wait);
        }
      },
    };
  }
}

/**
 * Null when the sliding window's estimate (the previous window's count weighted by the share of it still
 * covered, plus this window's, this call included) is within the limit; else the seconds until a next call
 * would be, if none came meanwhile. `elapsed`: seconds since this window started.
 */
export function slidingWait(got: RateCount, window: RateWindow, elapsed: number): number | null {
  const length = window.seconds;
  if (got.previous * (1 - elapsed / length) + got.count <= window.limit) return null;
  // Still in this window: the previous one's weight must fall until the next call fits beside this count.
  if (got.count + 1 <= window.limit && got.previous > 0) {
    const at = length * (1 - (window.limit - got.count - 1) / got.previous);
    if (at <= length) return at - elapsed;
  }
  // In the next window, where this window's count is the previous one.
  const at = got.count > 0 ? Math.max(0, length * (1 - (window.limit - 1) / got.count)) : 0;
  return length - elapsed + at;
}

/** Increments the rows (one conditional upsert) and answers their counts now, with their previous windows'. */
export async function countRates(db: Kysely<Database>, rows: readonly RateRow[]): Promise<Map<string, RateCount>> {
  const counted = await rateCountUpsert(db, rows).execute();
  return new Map(counted.map((row) => [row.key, { count: row.count, previous: row.previous }]));
}

/**
 * The upsert countRates runs, returning each row's count and its previous window's: also for a WITH of
 * another statement (search). The previous count is read by the row's own insert (a primary-key lookup)
 * and kept on the row, so RETURNING can answer it; every call reads it afresh, so calls that counted in the
 * previous window after this one began are seen too.
 */
export function rateCountUpsert(qc: QueryCreator<Database>, rows: readonly RateRow[]) {
  return qc
    .insertInto('rate_counters')
    .values(
      rows.map((row) => ({
        key: row.key,
        window_start: row.window_start,
        count: 1,
        previous: (eb: ExpressionBuilder<Database, 'rate_counters'>) =>
          eb.fn.coalesce(
            eb
              .selectFrom('rate_counters as p')
              .select('p.count')
              .where('p.key', '=', row.key)
              .where('p.window_start', '=', row.previous_start),
            eb.lit(0),
          ),
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['key', 'window_start'])
        .doUpdateSet((eb) => ({ count: eb('rate_counters.count', '+', 1), previous: eb.ref('excluded.previous') })),
    )
    .returning(['key', 'count', 'previous']);
}

/**
 * PostgreSQL: a read that counts a call too, in one round trip. `qc` starts the read with the counters'
 * upsert in a WITH (`hit`), which PostgreSQL runs to completion whatever the rest reads; `rateCounts` selects
 * their counts beside it, as `[key, count]` pairs. For a query prepared by shape (db/prepared.ts) on the
 * number of rows: `slot` names each row's values as `rateSlots` binds them.
 */
export function countedRead(db: Kysely<Database>, rows: number, slot: (name: string) => never) {
  const counting = db.with('hit', (w) =>
    rateCountUpsert(
      w,
      Array.from({ length: rows }, (_, i) => ({
        key: slot(`key${i}`),
        window_start: slot(`start${i}`),
        previous_start: slot(`previous${i}`),
      })),
    ),
  );
  return {
    // The CTE's rows are read by name (`rateCounts`); the rest of the query is an ordinary read.
    qc: counting as unknown as QueryCreator<Database>,
    rateCounts: sql<
      [string, number, number][] | null
    >`(select json_agg(json_build_array(h.key, h.count, h.previous)) from hit h)`.as('rate_counts'),
  };
}

/** The values of `countedRead`'s slots for these rows. */
export function rateSlots(rows: readonly RateRow[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) =>
    Object.assign(values, {
      [`key${i}`]: row.key,
      [`start${i}`]: row.window_start,
      [`previous${i}`]: row.previous_start,
    }),
  );
  return values;
}

/**
 * A read that counts a call too (RateCounter.plan's `counters`): on PostgreSQL `counting`, one statement built
 * with countedRead and given `rateSlots`' values; elsewhere the counters' upsert (countRates), then `plain`.
 * Answers the read's first row (without its `rate_counts`) and the counts; the counters count even when
 * there is no row.
 */
export async function readWithRateCounts<Counted extends { rate_counts: [string, number, number][] | null }, Plain>(
  db: Kysely<Database>,
  counters: readonly RateRow[],
  counting: (slots: Record<string, unknown>) => Promise<readonly Counted[]>,
  plain: () => Promise<Plain | undefined>,
): Promise<{ row: Omit<Counted, 'rate_counts'> | Plain | undefined; rateCounts: Map<string, RateCount> }> {
  if (counters.length && db.getExecutor().adapter instanceof PostgresAdapter) {
    const [counted] = await counting(rateSlots(counters));
    if (!counted) return { row: undefined, rateCounts: new Map() };
    const { rate_counts, ...row } = counted;
    return {
      row,
      rateCounts: new Map((rate_counts ?? []).map(([key, count, previous]) => [key, { count, previous }])),
    };
  }
  // SQLite: two local statements.
  const rateCounts = counters.length ? await countRates(db, counters) : new Map<string, RateCount>();
  return { row: await plain(), rateCounts };
}
