import { PostgresAdapter, sql, type Kysely, type QueryCreator } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { tooManyRequests } from '../../errors.ts';

export interface RateWindow {
  seconds: number;
  limit: number;
}

/** One counter row a call increments: its key (with the window's length) and the start of its window. */
export interface RateRow {
  key: string;
  window_start: string;
}

/**
 * A call's count, planned: the rows to increment, and the check of the counts read back. A feature may send
 * the rows with a statement of its own (search: with the read it starts from, one round trip on PostgreSQL).
 */
export interface RateHit {
  readonly rows: readonly RateRow[];
  /** Refuses with 429 (and Retry-After) when a count read back is over its window's limit. */
  check(counts: ReadonlyMap<string, number>): void;
}

/**
 * Fixed-window counters in the database, so limits hold across clean restarts and across server processes
 * (on PostgreSQL the table is unlogged: a crash of the database server empties it, see docs/operations.md).
 * Old windows are left for the cleanup job.
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
   */
  async hit(key: string, windows: readonly RateWindow[], code: string, message: string): Promise<void> {
    const planned = this.plan(key, windows, code, message);
    if (planned) planned.check(await countRates(this.db, planned.rows));
  }

  /** What `hit` does, for a caller that sends the rows itself (countRates, or in a statement of its own); null: nothing to count. */
  plan(key: string, windows: readonly RateWindow[], code: string, message: string): RateHit | null {
    if (windows.length === 0) return null;
    const now = this.clock.now().getTime();
    // One row per window length (PostgreSQL refuses an upsert touching the same row twice): the tightest limit.
    const bySeconds = new Map<number, RateWindow>();
    for (const window of windows) if ((bySeconds.get(window.seconds)?.limit ?? Infinity) > window.limit) bySeconds.set(window.seconds, window);
    const counted = [...bySeconds.values()].map((window) => {
      const start = Math.floor(now / 1000 / window.seconds) * window.seconds;
      return { window, start, key: `${key}:${window.seconds}` };
    });
    return {
      rows: counted.map((c) => ({ key: c.key, window_start: new Date(c.start * 1000).toISOString() })),
      check(counts) {
        for (const c of counted) {
          if ((counts.get(c.key) ?? 0) > c.window.limit) throw tooManyRequests(code, message, c.start + c.window.seconds - now / 1000);
        }
      },
    };
  }
}

/** Increments the rows (one conditional upsert) and answers their counts now. */
export async function countRates(db: Kysely<Database>, rows: readonly RateRow[]): Promise<Map<string, number>> {
  const counted = await rateCountUpsert(db, rows).execute();
  return new Map(counted.map((row) => [row.key, row.count]));
}

/** The upsert countRates runs, returning each row's count: also for a WITH of another statement (search). */
export function rateCountUpsert(qc: QueryCreator<Database>, rows: readonly RateRow[]) {
  return qc
    .insertInto('rate_counters')
    .values(rows.map((row) => ({ ...row, count: 1 })))
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_counters.count', '+', 1) })))
    .returning(['key', 'count']);
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
      Array.from({ length: rows }, (_, i) => ({ key: slot(`key${i}`), window_start: slot(`start${i}`) })),
    ),
  );
  return {
    // The CTE's rows are read by name (`rateCounts`); the rest of the query is an ordinary read.
    qc: counting as unknown as QueryCreator<Database>,
    rateCounts: sql<[string, number][] | null>`(select json_agg(json_build_array(h.key, h.count)) from hit h)`.as('rate_counts'),
  };
}

/** The values of `countedRead`'s slots for these rows. */
export function rateSlots(rows: readonly RateRow[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) => Object.assign(values, { [`key${i}`]: row.key, [`start${i}`]: row.window_start }));
  return values;
}

/**
 * A read that counts a call too (RateCounter.plan's `counters`): on PostgreSQL `counting`, one statement built
 * with countedRead and given `rateSlots`' values; elsewhere the counters' upsert (countRates), then `plain`.
 * Answers the read's first row (without its `rate_counts`) and the counts; the counters count even when
 * there is no row.
 */
export async function readWithRateCounts<Counted extends { rate_counts: [string, number][] | null }, Plain>(
  db: Kysely<Database>,
  counters: readonly RateRow[],
  counting: (slots: Record<string, unknown>) => Promise<readonly Counted[]>,
  plain: () => Promise<Plain | undefined>,
): Promise<{ row: Omit<Counted, 'rate_counts'> | Plain | undefined; rateCounts: Map<string, number> }> {
  if (counters.length && db.getExecutor().adapter instanceof PostgresAdapter) {
    const [counted] = await counting(rateSlots(counters));
    if (!counted) return { row: undefined, rateCounts: new Map() };
    const { rate_counts, ...row } = counted;
    return { row, rateCounts: new Map(rate_counts ?? []) };
  }
  // SQLite: two local statements.
  const rateCounts = counters.length ? await countRates(db, counters) : new Map<string, number>();
  return { row: await plain(), rateCounts };
}
