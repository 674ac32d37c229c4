import {
  DummyDriver,
  expressionBuilder,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../../../db/client.ts';
import type { Database } from '../../../db/schema.ts';
import { searchQuery } from '../../contract/discovery.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/testDatabase.ts';
import { testProfileId } from '../../test/testIds.ts';
import {
  filterPoolKey,
  searchFilters,
  type CandidateTables,
  type Reading,
  type SearchFilter,
  type SearchParams,
  type Seeker,
  type Watched,
} from './filters.ts';

/**
 * What the filter registry (filters.ts) cannot enforce by itself: that the triggers installed by the
 * migrations stamp every column a filter watches, on both databases (a migration never changes once
 * applied, so a new filter's column needs a new one), and that its pool key covers what decides who
 * passes. The filters' conditions are held to their plain forms by searchEquivalence.test.ts.
 */

/** A trigger as installed, read back from the database's catalog. */
interface InstalledTrigger {
  name: string;
  table: string;
  event: 'INSERT' | 'UPDATE' | 'DELETE';
  /** UPDATE OF these columns; null when any update fires it. */
  columns: string[] | null;
  /** Its WHEN condition, if any. */
  condition: string | null;
  /** What it runs: the trigger's body (SQLite) or its function's source (PostgreSQL). */
  action: string;
}

const sqliteTrigger =
  /^\s*CREATE\s+(?:TEMP(?:ORARY)?\s+)?TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?[\w."]+\s+(?:(?:BEFORE|AFTER|INSTEAD\s+OF)\s+)?(INSERT|UPDATE|DELETE)(?:\s+OF\s+(.+?))?\s+ON\s+"?(\w+)"?\s+(?:FOR\s+EACH\s+ROW\s+)?(?:WHEN\s+([\s\S]+?)\s+)?BEGIN\b([\s\S]*)\bEND\s*$/i;

async function installedTriggers(db: Kysely<Database>, dialect: Dialect): Promise<InstalledTrigger[]> {
  if (dialect === 'sqlite') {
    const rows = await sql<{
      name: string;
      sql: string;
    }>`select name, sql from sqlite_master where type = 'trigger'`.execute(db);
    return rows.rows.map((row) => {
      const m = sqliteTrigger.exec(row.sql);
      if (!m) throw new Error(`cannot read trigger ${row.name}: ${row.sql}`);
      const [, event, columns, table, condition, body] = m;
      return {
        name: row.name,
        table: table ?? '',
        event: (event ?? '').toUpperCase() as InstalledTrigger['event'],
        columns: columns ? columns.split(',').map((c) => c.trim().replace(/"/g, '')) : null,
        condition: condition ?? null,
        action: body ?? '',
      };
    });
  }
  const triggers = await sql<{
    name: string;
    table: string;
    event: InstalledTrigger['event'];
    condition: string | null;
    statement: string;
  }>`
    select trigger_name as name, event_object_table as "table", event_manipulation as event, action_condition as condition,
      action_statement as statement
    from information_schema.triggers where trigger_schema = current_schema()`.execute(db);
  const columns = await sql<{ name: string; table: string; column: string }>`
    select trigger_name as name, event_object_table as "table", event_object_column as "column"
    from information_schema.triggered_update_columns where trigger_schema = current_schema()`.execute(db);
  const functions = await sql<{ name: string; source: string }>`
    select p.proname as name, p.prosrc as source from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema()`.execute(db);
  return triggers.rows.map((t) => {
    const fn = /EXECUTE\s+(?:FUNCTION|PROCEDURE)\s+(?:"?\w+"?\.)?"?(\w+)"?\s*\(/i.exec(t.statement)?.[1];
    const source = functions.rows.find((f) => f.name === fn)?.source;
    if (source === undefined) throw new Error(`cannot read the function of trigger ${t.name}: ${t.statement}`);
    const of = columns.rows.filter((c) => c.name === t.name && c.table === t.table).map((c) => c.column);
    return {
      name: t.name,
      table: t.table,
      event: t.event,
      columns: t.event === 'UPDATE' && of.length ? of : null,
      condition: t.condition,
      action: source,
    };
  });
}

/**
 * Why no trigger stamps `profiles.search_changed_at` when this column changes: for each way it can
 * change (an update of it; a new row, except for users, whose row comes before the profile, which is
 * stamped when it is made), no trigger fires on it (UPDATE OF, and a WHEN that reads it) and stamps.
 */
function unstamped(watched: Watched, triggers: InstalledTrigger[]): string[] {
  const [table, column] = watched.split('.') as [string, string];
  const readsColumn = new RegExp(`\\b(?:new|old)\\."?${column}"?\\b`, 'i');
  const stamps = (t: InstalledTrigger) => /\bsearch_changed_at\b/i.test(t.action);
  const fires = (t: InstalledTrigger, event: InstalledTrigger['event']) =>
    t.table === table &&
    t.event === event &&
    (t.columns === null || t.columns.includes(column)) &&
    (t.condition === null || readsColumn.test(t.condition));
  const missing: string[] = [];
  if (!triggers.some((t) => fires(t, 'UPDATE') && stamps(t)))
    missing.push(`${watched}: no trigger stamps search_changed_at when it is updated`);
  if (table !== 'users' && !triggers.some((t) => fires(t, 'INSERT') && stamps(t)))
    missing.push(`${watched}: no trigger stamps search_changed_at when a row is inserted`);
  return missing;
}

describe.each(testDialects())('search filters against the triggers installed on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('stamps search_changed_at on every change of a column a filter watches', async () => {
    const triggers = await installedTriggers(database.db, dialect);
    // A filter added without the trigger migration its watched column needs (docs/discovery.md) fails here, naming it.
    const missing = searchFilters.flatMap((f) =>
      f.watches.flatMap((w) => unstamped(w, triggers).map((why) => `${f.name}: ${why}`)),
    );
    expect(missing).toEqual([]);
  });

  it('tells a column no trigger watches from one a new trigger does', async () => {
    // The check itself, on this database's catalog: bio is watched by nothing until a trigger is added for it.
    const before = unstamped('profiles.bio', await installedTriggers(database.db, dialect));
    expect(before).toEqual(['profiles.bio: no trigger stamps search_changed_at when it is updated']);
    // A trigger on bio whose WHEN never reads bio still leaves it unwatched.
    await sql
      .raw(
        dialect === 'sqlite'
          ? `CREATE TRIGGER bio_wrong AFTER UPDATE OF bio ON profiles WHEN OLD.name IS NOT NEW.name
             BEGIN UPDATE profiles SET search_changed_at = 'x' WHERE id = NEW.id; END`
          : `CREATE TRIGGER bio_wrong BEFORE UPDATE OF bio ON profiles FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
             EXECUTE FUNCTION profiles_search_touch()`,
      )
      .execute(database.db);
    expect(unstamped('profiles.bio', await installedTriggers(database.db, dialect))).toEqual(before);
    await sql
      .raw(
        dialect === 'sqlite'
          ? `CREATE TRIGGER bio_right AFTER UPDATE OF bio ON profiles WHEN OLD.bio IS NOT NEW.bio
             BEGIN UPDATE profiles SET search_changed_at = 'x' WHERE id = NEW.id; END`
          : `CREATE TRIGGER bio_right BEFORE UPDATE OF bio ON profiles FOR EACH ROW WHEN (OLD.bio IS DISTINCT FROM NEW.bio)
             EXECUTE FUNCTION profiles_search_touch()`,
      )
      .execute(database.db);
    expect(unstamped('profiles.bio', await installedTriggers(database.db, dialect))).toEqual([]);
  });
});

/** Compiles without a database: enough to compare what two conditions say. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
const candidate = expressionBuilder<CandidateTables, 'p' | 'u'>();

/** What a filter does for a caller: its values in a scan, beyond a bound and in a re-check, and its plain SQL with values. */
function outcome(f: SearchFilter, s: Seeker): string {
  const readings: Reading[] = [{ box: 0.02 }, { box: null, beyondKm: 40 }, { box: null, only: [1, 2] }];
  let plain = compiler.selectFrom('profiles as p').innerJoin('users as u', 'u.id', 'p.user_id').select('p.id');
  for (const condition of f.plain(candidate, s)) plain = plain.where(condition);
  const compiled = plain.compile();
  return JSON.stringify([readings.map((r) => f.bind?.(s, r) ?? {}), compiled.sql, compiled.parameters]);
}

describe('the search filter registry', () => {
  it('reads every request parameter of GET /api/search in some filter', () => {
    const read = new Set<string>(searchFilters.flatMap((f) => f.params ?? []));
    const params = Object.keys(searchQuery.shape).filter((p) => p !== 'exclude');
    expect(params.filter((p) => !read.has(p))).toEqual([]);
  });

  it('puts into the pool key whatever changes who passes a filter', () => {
    const base: Seeker = {
      ageMin: 18,
      ageMax: 100,
      gender: 'Any',
      me: { id: testProfileId(7), gender: 'Male', point: { latitude: 55.75, longitude: 37.62 }, age: 30 },
    };
    // Every request parameter must be here (the type asks for it), with values other than the base's.
    const otherParams: { [K in keyof SearchParams]: SearchParams[K][] } = {
      ageMin: [30],
      ageMax: [40],
      gender: ['Male', 'Female'],
      maxDistance: [50],
    };
    const limited: Seeker = { ...base, maxDistance: 50 };
    const variants: [string, Seeker][] = [
      ...Object.entries(otherParams).flatMap(([param, values]) =>
        values.map((value): [string, Seeker] => [param, { ...base, [param]: value }]),
      ),
      ...(['Female', 'Other'] as const).map((gender): [string, Seeker] => [
        'me.gender',
        { ...base, me: { ...base.me, gender } },
      ]),
      ...[null, { latitude: 55.8, longitude: 37.62 }].map((point): [string, Seeker] => [
        'me.point',
        { ...base, me: { ...base.me, point } },
      ]),
      // The ranking distance a scan's rings are drawn in is stretched from the caller's age (on the default range).
      ['me.age', { ...base, me: { ...base.me, age: 45 } }],
    ];
    // With a distance limit, the caller's position decides who passes it too.
    const limitedVariants: [string, Seeker][] = [null, { latitude: 55.8, longitude: 37.62 }].map((point) => [
      'me.point (limited)',
      { ...limited, me: { ...limited.me, point } },
    ]);
    const changed: string[] = [];
    const unkeyed: string[] = [];
    for (const [from, list] of [
      [base, variants],
      [limited, limitedVariants],
    ] as const) {
      for (const [what, variant] of list) {
        for (const f of searchFilters) {
          if (outcome(f, variant) === outcome(f, from)) continue;
          changed.push(what);
          if (JSON.stringify(filterPoolKey(f, variant)) === JSON.stringify(filterPoolKey(f, from)))
            unkeyed.push(`${f.name}: ${what}`);
        }
      }
    }
    // A filter that reads something of the caller without declaring it (params, poolKey) would reuse a pool made for others.
    expect(unkeyed).toEqual([]);
    // And the check sees every change: each variant changes what some filter does.
    expect([...new Set(changed)].sort()).toEqual(
      [...new Set([...variants, ...limitedVariants].map(([what]) => what))].sort(),
    );
  });
});

describe('the position filter', () => {
  const position = searchFilters.find((f) => f.name === 'position');
  const seeker = (latitude: number, longitude: number): Seeker => ({
    me: { id: testProfileId(1), gender: 'Male', point: { latitude, longitude }, age: 30 },
    ageMin: 18,
    ageMax: 100,
    gender: 'Any',
  });
  const box = (s: Seeker, r: Reading) =>
    position?.bind?.(s, r) as { south: number; north: number; west: number; east: number };

  it("narrows a box to its outer edge's circle where that is smaller, never cutting into the circle", () => {
    const s = seeker(55.75, 37.62);
    const whole = box(s, { box: 0.25 });
    expect(whole.north - 55.75).toBeCloseTo(0.25, 9);
    const edgeKm = 20;
    const narrowed = box(s, { box: 0.25, beyondKm: 15, withinKm: edgeKm });
    const cos = Math.cos((55.75 * Math.PI) / 180);
    // Just outside the circle of 20 km (flat metric: 111.19 km a degree of latitude, times cos in longitude).
    expect(narrowed.north - 55.75).toBeGreaterThan(edgeKm / 111.19);
    expect(narrowed.north - 55.75).toBeLessThan(edgeKm / 111.19 + 1e-4);
    expect(55.75 - narrowed.south).toBeCloseTo(narrowed.north - 55.75, 12);
    expect(narrowed.east - 37.62).toBeGreaterThan(edgeKm / 111.19 / cos);
    expect(narrowed.east - 37.62).toBeLessThan(whole.east - 37.62);
    // An edge beyond the box's circle leaves the box as it is.
    expect(box(s, { box: 0.25, withinKm: 100 })).toMatchObject(whole);
  });

  it('keeps the box where the circle is wider than it: near a pole, where its longitude span is clamped', () => {
    const s = seeker(89.9, 10);
    const whole = box(s, { box: 1 });
    const narrowed = box(s, { box: 1, withinKm: 50 });
    // 50 km spans 0.45 degrees of latitude, but at cos 0.0017 far more longitude than the clamped box's 100 degrees.
    expect(narrowed.north - 89.9).toBeCloseTo(50.001 / 111.19, 6);
    expect(narrowed.east).toBe(whole.east);
    expect(narrowed.west).toBe(whole.west);
  });
});
