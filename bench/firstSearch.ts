/**
 * The heavy swiper's first search of the day (issue 41 goal 4) on SQLite and on PostgreSQL, against a floor
 * that reads the same ring the search reads with no exclusion (ringFloor.ts), on the HTTP bench's people
 * (benchHttpData.ts: 10,000 profiles; 100 heavy swipers who swiped everyone in their city, so everyone
 * within about 25 km). Each heavy swiper's pool is found expired on every search, so every search starts
 * from the frontier the last one left (candidatePool.ts Frontier) and reads the ring beyond it; the floor
 * runs right after each search, on the ring that search read. Filters: each person's own preference with
 * an age range around their own (as the HTTP bench), and the default range (18-100), where the age stretch
 * is widest. Also prints what each of the search's statements cost on average (the per-statement profile).
 *
 * Run alone: `npx tsx bench/firstSearch.ts [--rounds n] [--against <checkout>]`; in `npm run bench discovery`
 * as its part `firstsearch`. `--against` sets another checkout's search beside this one in the same process,
 * on the same data, each over its own connections, taking turns by searcher (which goes first alternates),
 * each search followed by the floor of the ring it read: between runs the ratio moves more than between two
 * searches, so a change is judged by the two ratios of one run. PostgreSQL from TEST_DATABASE_URL, else DATABASE_URL, else the local `test` database, in a
 * database of its own (dropped after); skipped when it does not answer. Figures only.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database, Gender, PreferredGender, ProfileId, UserId } from '../db/schema.ts';
import { systemClock } from '../server/clock.ts';
import type { SearchQuery } from '../server/contract/discovery.ts';
import { CandidatePools, poolTtlMs, type PoolStore } from '../server/features/search/candidatePool.ts';
import { SearchService } from '../server/features/search/service.ts';
import { RateCounter } from '../server/features/rateLimits/rateCounter.ts';
import { withAdminClient } from '../server/test/testDatabase.ts';
import { argOption, line, quantile, ratioLine, summary, time } from './benchKit.ts';
import { pgAnswers } from './benchCrowd.ts';
import { benchDataDir, httpDataSetSize, loadHttpBenchData } from './benchHttpData.ts';
import { ensureDataSet } from './discoveryDataSet.ts';
import { recordingRings, ringFloorQuery, ringNote, type FloorSeeker, type Ring } from './ringFloor.ts';

class NoRateLimit extends RateCounter {
  override plan(): null {
    return null;
  }
}

interface Searcher extends FloorSeeker {
  userId: UserId;
}

type PersonRow = {
  id: ProfileId;
  user_id: UserId;
  age: number;
  gender: Gender;
  preferred_gender: PreferredGender;
  latitude: number;
  longitude: number;
};

/** Each statement's kind, named by what it reads. */
function statementKind(text: string): string {
  const t = text.replace(/\s+/g, ' ');
  // The first pass with its people re-read for ranking in one statement (since 2026-11-29, candidates.ts nearestQuery).
  if (/^with "near"/.test(t))
    return /json_each|jsonb_array_elements/.test(t)
      ? 'ring pass + re-read, stripes'
      : 'ring pass + re-read, latitude band';
  if (/json_each|jsonb_array_elements/.test(t)) return 'ring first pass, stripes';
  if (/^select count\(\*\)/i.test(t)) return 'changes counted (SQLite)';
  if (/^with "kept" as \(insert into "search_pools"/.test(t)) return 'card read with photos, pool kept with it';
  if (/^insert into "search_pools"/.test(t) || /^update "search_pools"/.test(t)) return 'pool kept';
  if (/max\("c"\."search_changed_at"\)/.test(t)) return 'search start (profile, pool, watermark)';
  if (/"search_changed_at"/.test(t)) return 'changes near the caller';
  if (/^select "p"\."id", "p"\."latitude", "p"\."longitude", "p"\."age"(, \(.*\) as "k")? from "profiles"/.test(t))
    return 'ring first pass, latitude band';
  if (/group_concat|string_agg/.test(t) && /"liked_me"/.test(t)) return 'card read with photos';
  if (/"liked_me"/.test(t) && !/"p"\."name"/.test(t)) return 'ranking re-read';
  if (/"liked_me"/.test(t)) return 'candidates, every rule';
  return t.slice(0, 60);
}

/** The database with every statement timed by kind (the per-statement profile). */
function timing(db: Kysely<Database>, record: (kind: string, ms: number) => void): Kysely<Database> {
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (property === 'executeQuery' && typeof value === 'function')
        return async (...args: unknown[]) => {
          const query = args[0] as { sql?: string };
          const started = performance.now();
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            record(statementKind(query.sql ?? ''), performance.now() - started);
          }
        };
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `--only postgres` skips SQLite (`--only sqlite`: PostgreSQL). */
class SkipDialect extends Error {}

/** Another checkout's search, built over its own connections (`--against`). */
interface OtherSide {
  label: string;
  open(dialect: 'SQLite' | 'PostgreSQL', url: string): Promise<{ search: SearchOf; close(): Promise<void> }>;
}

type SearchOf = (s: Searcher) => Promise<unknown>;

/** The pool store a day's first search finds: every pool expired, found a day later (see measure). */
function expiredPools(kept: PoolStore, aDayLater: PoolStore): PoolStore {
  return {
    take: () => Promise.resolve(null),
    frontier: (me, key, wanted, prefetched) => aDayLater.frontier(me, key, wanted, prefetched),
    keep: (me, pool, _ttlMs, carry) => kept.keep(me, pool, -60_000, carry),
    put: (me, pool) => kept.put(me, pool),
    drop: (me) => kept.drop(me),
  };
}

/**
 * Another checkout's SearchService (`--against <dir>`), loaded from its own files, with its own pools and
 * connections (its prepared statements are named by its own counter: on shared connections two checkouts'
 * names would collide). Its rings are recorded by this checkout's store wrapper, so its floors are the same
 * queries as this side's.
 */
async function otherCheckout(dir: string): Promise<OtherSide & { rings: Map<number, Ring> }> {
  const from = (file: string) => import(pathToFileURL(path.resolve(dir, file)).href);
  const [client, service, pools, rates, clock] = await Promise.all([
    from('db/client.ts'),
    from('server/features/search/service.ts'),
    from('server/features/search/candidatePool.ts'),
    from('server/features/rateLimits/rateCounter.ts'),
    from('server/clock.ts'),
  ]);
  const rings = new Map<number, Ring>();
  return {
    label: path.basename(path.resolve(dir)),
    rings,
    async open(_dialect, url) {
      const handle = client.openDatabase({ url, dataDir: benchDataDir }) as { db: Kysely<Database> };
      const Rates = rates.RateCounter as typeof RateCounter;
      class NoLimit extends Rates {
        override plan(): null {
          return null;
        }
      }
      const Pools = pools.CandidatePools as typeof CandidatePools;
      const ttl = pools.poolTtlMs as number;
      const store = expiredPools(
        new Pools(handle.db, () => Date.now()),
        new Pools(handle.db, () => Date.now() + ttl + 60_000),
      );
      const recorded = recordingRings(store, rings);
      const Service = service.SearchService as typeof SearchService;
      const systemClockThere = clock.systemClock as typeof systemClock;
      const searchService = new Service(
        handle.db,
        systemClockThere,
        new NoLimit(handle.db, systemClockThere),
        recorded.store,
      );
      return {
        search: (s) => searchService.next(s.userId, { ...s.query, exclude: [] }, 'ru'),
        close: () => handle.db.destroy(),
      };
    },
  };
}

async function measure(
  dialect: 'SQLite' | 'PostgreSQL',
  db: Kysely<Database>,
  url: string,
  heavy: Searcher[],
  rounds: number,
  other: (OtherSide & { rings: Map<number, Ring> }) | null,
): Promise<void> {
  let profiling = false;
  const costs = new Map<string, number[]>();
  // Beside another checkout, neither is profiled: the timing proxy costs this side alone about 0.1-0.3 ms a search.
  const timed = other
    ? db
    : timing(db, (kind, ms) => {
        if (profiling) costs.set(kind, [...(costs.get(kind) ?? []), ms]);
      });
  // Pools kept expired, found a day later: every search is a first of the day, from the last one's frontier.
  // Stored as expired as they will be found (a minute ago), so the database sees them so too: a search's
  // start asks the frontier's change question only of an expired pool (searchChanges.ts changesAtStart).
  const expired = expiredPools(
    new CandidatePools(timed, () => Date.now()),
    new CandidatePools(timed, () => Date.now() + poolTtlMs + 60_000),
  );
  // The pool's upsert is a prepared statement through the timing proxy (on PostgreSQL in the card's own
  // statement, repository.ts findCardKeepingPool): timed as the statement it is, never twice.
  const { store, rings } = recordingRings(expired);
  const service = new SearchService(timed, systemClock, new NoRateLimit(timed, systemClock), store);
  const there = other ? await other.open(dialect, url) : null;
  const sides = [
    {
      label: there ? 'this checkout' : '',
      rings,
      search: (s: Searcher) => service.next(s.userId, { ...s.query, exclude: [] }, 'ru'),
      profiled: !other,
    },
    ...(there && other ? [{ label: other.label, rings: other.rings, search: there.search, profiled: false }] : []),
  ];
  for (const variant of ['own range', 'default range'] as const) {
    const who = heavy.map((s) =>
      variant === 'own range' ? s : { ...s, query: { ...s.query, ageMin: 18, ageMax: 100 } },
    );
    // Twice each: the first leaves a pool (a fresh scan), the second its first search beyond the frontier.
    for (const side of sides) for (let pass = 0; pass < 2; pass++) for (const s of who) await side.search(s);
    const searches = sides.map((): number[] => []);
    const floors = sides.map((): number[] => []);
    costs.clear();
    const deadline = performance.now() + 30_000 * sides.length;
    let profiled = 0;
    for (let i = 0; i < rounds && performance.now() < deadline; i++) {
      const s = who[i % who.length] as Searcher;
      // Which side goes first alternates by round: neither always finds the other's pool just written.
      for (let k = 0; k < sides.length; k++) {
        const index = (k + i) % sides.length;
        const side = sides[index] as (typeof sides)[number];
        profiling = side.profiled;
        const took = await time(() => side.search(s));
        profiling = false;
        if (side.profiled) profiled++;
        const ring = side.rings.get(s.me.id);
        const floor = ring ? ringFloorQuery(db, s, ring) : null;
        if (!floor) continue;
        searches[index]?.push(took);
        floors[index]?.push(await time(() => db.executeQuery(floor)));
      }
    }
    sides.forEach((side, index) => {
      const name = side.label ? `, ${side.label}` : '';
      console.log(`\n${dialect}, heavy swipers, ${variant}${name} (load average ${loadavg()[0]?.toFixed(1)})`);
      line('rings read', ringNote(who.map((s) => side.rings.get(s.me.id)).filter((r) => r !== undefined)));
      const searchQ = summary("day's first search, heavy", searches[index] ?? []);
      const floorQ = summary('floor: the same ring, no exclusion', floors[index] ?? []);
      ratioLine(`ratio heavy day's first search / ring floor, ${dialect}, ${variant}${name}`, searchQ, floorQ, {
        floor: 'one query reading the same ring without exclusions (bench/ringFloor.ts)',
        measure: `heavy swiper's first search of the day, ${dialect}, ${variant}${name}`,
        goal: '<= 3x',
      });
    });
    const perSearch = profiled || 1;
    const median = (list: number[]) =>
      quantile(
        [...list].sort((a, b) => a - b),
        0.5,
      );
    let sumOfMedians = 0;
    for (const [kind, list] of [...costs].sort((a, b) => median(b[1]) * b[1].length - median(a[1]) * a[1].length)) {
      sumOfMedians += (median(list) * list.length) / perSearch;
      line(
        `  ${kind}`,
        `${(list.length / perSearch).toFixed(2)} a search, p50 ${median(list).toFixed(3)} ms, mean ${(list.reduce((x, y) => x + y, 0) / list.length).toFixed(3)} ms`,
      );
    }
    line('  statements, p50 times count, summed', `${sumOfMedians.toFixed(3)} ms a search`);
  }
  await there?.close();
}

function searchersOf(rows: PersonRow[]): Searcher[] {
  return rows.map((p) => ({
    userId: p.user_id,
    me: { id: p.id, gender: p.gender, point: { latitude: p.latitude, longitude: p.longitude }, age: p.age },
    query: {
      ageMin: Math.max(18, p.age - 5),
      ageMax: Math.min(100, p.age + 7),
      gender: p.preferred_gender as SearchQuery['gender'],
    },
  }));
}

export async function firstSearchBench(
  rounds = Number(argOption('--rounds') ?? 600),
  against = argOption('--against'),
  only = argOption('--only'),
): Promise<void> {
  if (only !== undefined && only !== 'postgres' && only !== 'sqlite')
    throw new Error(`--only takes postgres or sqlite, not ${only}`);
  const other = against ? await otherCheckout(against) : null;
  const built = await ensureDataSet(benchDataDir, httpDataSetSize, (m) => console.log(m));
  console.log(`\nHeavy swiper's first search of the day, SQLite and PostgreSQL, Node ${process.version}`);
  line(
    'data set',
    `${path.relative(process.cwd(), built.file)}: ${httpDataSetSize.profiles} profiles, ${built.info.heavy.length} heavy swipers`,
  );
  const source = new SQLite(built.file, { readonly: true });
  const heavyRows = source
    .prepare(
      `select p.id, p.user_id, p.age, p.gender, p.preferred_gender, p.latitude, p.longitude from profiles p join users u on u.id = p.user_id where u.banned_at is null and p.latitude is not null and p.id in (${built.info.heavy.join(',')}) order by p.id`,
    )
    .all() as PersonRow[];
  const heavy = searchersOf(heavyRows);

  // SQLite: a copy of the data set, its changes spread over the 30 days before yesterday (discovery.ts).
  const work = path.join(benchDataDir, `first-search-${process.pid}.sqlite`);
  if (only !== 'postgres') copyFileSync(built.file, work);
  try {
    if (only === 'postgres') throw new SkipDialect();
    const handle = openDatabase({ url: `sqlite:${work}`, dataDir: benchDataDir });
    await migrateToLatest(handle.db);
    const raw = new SQLite(work);
    raw
      .prepare(
        `update profiles set search_changed_at = strftime('%Y-%m-%dT%H:%M:%fZ', ?, printf('-%d seconds', abs(random()) % 2592000))`,
      )
      .run(new Date(Date.now() - 86_400_000).toISOString());
    raw.exec('analyze');
    raw.close();
    await measure('SQLite', handle.db, `sqlite:${work}`, heavy, rounds, other);
    await handle.db.destroy();
  } catch (error) {
    if (!(error instanceof SkipDialect)) throw error;
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${work}${suffix}`, { force: true });
  }

  const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  if (only === 'sqlite' || !(await pgAnswers(pgUrl))) {
    if (only !== 'sqlite') console.log(`PostgreSQL skipped: nothing answers at ${new URL(pgUrl).host}`);
    source.close();
    return;
  }
  const name = `iskra_first_search_${randomBytes(3).toString('hex')}`;
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  await withAdminClient(pgUrl, (c) => c.query(`create database ${name}`));
  try {
    const handle = openDatabase({ url: url.toString(), dataDir: benchDataDir });
    await migrateToLatest(handle.db);
    const all = (table: string) => source.prepare(`select * from ${table}`).all() as Record<string, unknown>[];
    await loadHttpBenchData(url.toString(), {
      tables: ['users', 'profiles', 'photos', 'swipes', 'matches', 'blocks'].map((t) => [t, all(t)]),
    });
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    // As http.ts --burst ages them: a day ago and earlier, a minute apart per id; then a vacuumed database.
    await client.query(
      `update profiles set search_changed_at = to_char((now() - interval '1 day' - (id % 1440) * interval '1 minute') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    );
    await client.query('vacuum analyze');
    await client.end();
    await measure('PostgreSQL', handle.db, url.toString(), heavy, rounds, other);
    await handle.db.destroy();
  } finally {
    source.close();
    await withAdminClient(pgUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
  }
}

if (path.basename(process.argv[1] ?? '') === 'firstSearch.ts') await firstSearchBench();
