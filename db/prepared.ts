import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { directReaderOf } from './directReads.ts';
import type { Database } from './schema.ts';

/** The SQL texts of prepared queries, each with its own statement name (PostgreSQL keeps them per connection). */
const statementNames = new Map<string, string>();

function nameStatement(sql: string): void {
  if (!statementNames.has(sql)) statementNames.set(sql, `iskra_${statementNames.size + 1}`);
}

/** The name a prepared query's SQL runs under as a PostgreSQL named statement (db/client.ts), if it is one. */
export function namedStatementOf(sql: string): string | undefined {
  return statementNames.get(sql);
}

/** Stands in for an argument while a query is built once; replaced by the real value on every run. */
class Slot {
  constructor(readonly index: number) {}
}

type Slots<A extends unknown[]> = { [K in keyof A]: A[K] };

/**
 * A query built and compiled once per dialect, then run with new arguments: Kysely's builder and compiler
 * cost three times the query itself on a small indexed read (27 µs of 35 µs for a profile by id;
 * bench/discovery.ts), while running a compiled query costs what the raw driver does. The query is
 * written with the ordinary type-safe builder; `build` receives stand-ins for the arguments, which must be
 * used as plain values (a `where` operand, say), never inspected or computed with.
 *
 *   const findSwipe = prepared((db, swiper: ProfileId, target: ProfileId) =>
 *     db.selectFrom('swipes').select('liked').where('swiper_id', '=', swiper).where('target_id', '=', target));
 *   const row = await findSwipe.first(db, me.id, them.id);
 */
export function prepared<A extends unknown[], R>(build: (db: Kysely<Database>, ...args: Slots<A>) => Compilable<R>) {
  // Keyed by the dialect adapter: shared by a Kysely instance and all its transactions, and different
  // between SQLite (`?`) and PostgreSQL (`$1`).
  const compiled = new WeakMap<object, CompiledQuery<R>>();
  const compiledFor = (db: Kysely<Database>, arity: number): CompiledQuery<R> => {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      const slots = Array.from({ length: arity }, (_, i) => new Slot(i)) as unknown as Slots<A>;
      query = build(db, ...slots).compile();
      nameStatement(query.sql);
      compiled.set(adapter, query);
    }
    return query;
  };
  const run = async (db: Kysely<Database>, args: A): Promise<R[]> => {
    const query = compiledFor(db, args.length);
    const parameters = query.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
    return runCompiled(db, query.sql, parameters);
  };
  return {
    all: (db: Kysely<Database>, ...args: A): Promise<R[]> => run(db, args),
    first: async (db: Kysely<Database>, ...args: A): Promise<R | undefined> => (await run(db, args))[0],
  };
}

/** A named stand-in: replaced by `values[name]` on every run of a query prepared by shape. */
class NamedSlot {
  constructor(readonly name: string) {}
}

/**
 * Like `prepared`, for a query whose shape varies (how many items a list holds, which optional terms are
 * present): built and compiled once per shape key and dialect. `build` receives the shape and `slot(name)`,
 * a stand-in for a value given on every run; the values must be computed outside `build`, which sees
 * only stand-ins. The key must determine everything `build` does with the shape.
 *
 * `named: false` keeps its texts unnamed on PostgreSQL: for a query with unboundedly many shapes (lists of
 * any length), whose named statements would pile up on every connection for its lifetime, or one whose
 * best plan depends on the values (a generic plan chosen after five runs would serve every user alike).
 */
export function preparedByShape<S, R>(
  build: (db: Kysely<Database>, shape: S, slot: (name: string) => never) => Compilable<R>,
  keyOf: (shape: S) => string,
  { named = true }: { named?: boolean } = {},
) {
  const compiled = new WeakMap<object, Map<string, CompiledQuery<R>>>();
  const slot = (name: string) => new NamedSlot(name) as never;
  return async (db: Kysely<Database>, shape: S, values: Record<string, unknown>): Promise<R[]> => {
    const adapter = db.getExecutor().adapter;
    let byKey = compiled.get(adapter);
    if (!byKey) compiled.set(adapter, (byKey = new Map<string, CompiledQuery<R>>()));
    const key = keyOf(shape);
    let query = byKey.get(key);
    if (!query) {
      query = build(db, shape, slot).compile();
      if (named) nameStatement(query.sql);
      byKey.set(key, query);
    }
    const parameters = query.parameters.map((p) => {
      if (!(p instanceof NamedSlot)) return p;
      if (!(p.name in values)) throw new Error(`no value for ${p.name}`);
      return values[p.name];
    });
    return runCompiled(db, query.sql, parameters);
  };
}

/**
 * A compiled query's rows: run at once where the database allows it (SQLite: a read while nobody holds the
 * connection, or any statement of the transaction that holds it; see db/directReads.ts), else through
 * Kysely's executor.
 */
async function runCompiled<R>(db: Kysely<Database>, sql: string, parameters: unknown[]): Promise<R[]> {
  // The rows are what Kysely's own driver answers for the same statement (retryingSqliteDriver.ts runStatement).
  const direct = directReaderOf(db)?.(sql, parameters) as R[] | undefined;
  if (direct) return direct;
  return (await db.executeQuery<R>(CompiledQuery.raw(sql, parameters))).rows;
}
