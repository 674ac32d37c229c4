import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type Dialect as KyselyDialect } from 'kysely';
import type pg from 'pg';
import { allowDirectReads, allowDirectTransactionRuns } from './directReads.ts';
import { namedStatementOf } from './prepared.ts';
import { RetryingSqliteDialect, RetryingSqliteDriver, type SqliteSession } from './retryingSqliteDriver.ts';
import type { Database } from './schema.ts';
import { countingDialect } from './statementCounter.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for logs: a file path or the server without credentials. */
  description: string;
  /** PostgreSQL only: the schema the tables live in (the migrator must look there and nowhere else). */
  schema?: string;
  /** SQLite only: the connection itself, for what Kysely does not offer (the online backup API). */
  sqlite?: SQLite.Database;
  /**
   * For /api/health: 'busy' when another process has held SQLite's write lock for longer than a moment
   * (writes would then fail with DatabaseBusyError); 'ok' when a write could go ahead (on PostgreSQL, when
   * a query answers). Throws when the database does not answer.
   */
  probe: () => Promise<'ok' | 'busy'>;
}

export interface OpenDatabaseOptions {
  /** `postgres://…` for PostgreSQL, `sqlite:<file>` or nothing for the embedded SQLite file. */
  url?: string | undefined;
  dataDir: string;
  /** PostgreSQL schema to work in (tests give each run its own); it must already exist. */
  searchPath?: string | undefined;
  poolSize?: number;
  /**
   * SQLite: how long a statement may keep finding the file's write lock with another process before it
   * fails with DatabaseBusyError (the wait is asynchronous, so the process goes on serving meanwhile).
   * The server's default is short: a request should rather be told to try again than hang; command-line
   * tools pass `toolLockWaitMs`.
   */
  lockWaitMs?: number;
  /** Told of every statement sent, transaction control included (statement budgets in tests, the data bench). */
  onStatement?: ((sql: string) => void) | undefined;
  /** PostgreSQL: told when an idle pooled connection fails (a server restart, a terminated backend). */
  onIdleError?: ((error: Error) => void) | undefined;
}

/** A request waits this long for another process's write lock before it is answered 503 `database_busy`. */
export const serverLockWaitMs = 1500;
/**
 * The CLIs (admin, job, migrate, seed) serve nobody while they wait, and an admin's command failing because
 * the server or a job held the lock for two seconds would help no one: they wait up to half a minute.
 */
export const toolLockWaitMs = 30_000;
/** /api/health rides out a write of a few milliseconds by another process, and answers at once otherwise. */
const healthLockWaitMs = 250;

const require = createRequire(import.meta.url);

/**
 * Each driver is loaded when a database of its kind is first opened, not with this module: a server on
 * PostgreSQL never holds SQLite's native library (issue 41: memory). Not so for `pg` on SQLite: server/main.ts
 * imports the PostgreSQL event bus (server/features/events/postgresEventBus.ts, through redisEventBus.ts too),
 * which imports `pg` itself, so a server process loads it whatever its database.
 */
export const drivers = {
  sqlite: (): typeof SQLite => require('better-sqlite3') as typeof SQLite,
  postgres: (): typeof pg => require('pg') as typeof pg,
};

export function openDatabase(options: OpenDatabaseOptions): DatabaseHandle {
  const url = options.url;
  if (url && /^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  const file = url?.startsWith('sqlite:') ? url.slice('sqlite:'.length) : path.join(options.dataDir, 'iskra.sqlite');
  return openSqlite(file, options.lockWaitMs ?? serverLockWaitMs, options.onStatement);
}

/**
 * SQLite's synchronous level for every connection: NORMAL (1) in WAL mode syncs at checkpoints, so a power
 * cut may lose the last commits but never corrupts the file. Payments raise it for their own commit.
 */
export const sqliteSynchronousLevel = 1;

const counted = (dialect: KyselyDialect, onStatement: ((sql: string) => void) | undefined) =>
  onStatement ? countingDialect(dialect, onStatement) : dialect;

function openSqlite(
  file: string,
  lockWaitMs: number,
  onStatement: ((sql: string) => void) | undefined,
): DatabaseHandle {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // better-sqlite3's default busy timeout (5 s) still covers the set-up below: nothing is served yet.
  const sqlite = new (drivers.sqlite())(file);
  // WAL lets readers work while a write is in progress, in this process or another.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`synchronous = ${sqliteSynchronousLevel}`);
  // SQLite's default page cache is 2 MB; the search reads scattered profile rows and swipe-index pages, and
  // every miss is a system call. 64 MB keeps a city's profiles and the hot indexes in memory (measured with
  // bench/discovery.ts on 100,000 profiles and a million swipes).
  sqlite.pragma('cache_size = -65536');
  // SQLite's own wait for a lock is synchronous and would stop the event loop: the driver waits between
  // tries instead (db/retryingSqliteDriver.ts), so SQLite must answer "busy" at once.
  sqlite.pragma('busy_timeout = 0');
  const driver = new RetryingSqliteDriver(withStatementCache(sqlite), lockWaitMs);
  const db = new Kysely<Database>({ dialect: counted(new RetryingSqliteDialect(driver), onStatement) });
  allowDirectReads(db, (sql, parameters) => {
    const rows = driver.readNow(sql, parameters);
    // Counted like every statement (db/statementCounter.ts) when it ran here.
    if (rows && onStatement) onStatement(sql);
    return rows;
  });
  allowDirectTransactionRuns(db, (sql, parameters) => {
    const rows = driver.runInTransaction(sql, parameters);
    if (rows && onStatement) onStatement(sql);
    return rows;
  });
  return {
    db,
    dialect: 'sqlite',
    description: `sqlite:${file}`,
    sqlite,
    probe: () => driver.probeWriteLock(healthLockWaitMs),
  };
}

/**
 * `limit ?` (and `offset ?`) written `limit (? + 0)`: SQLite's planner reads a bound LIMIT's value (SQLite 3.53
 * here), which marks the statement to be compiled again each time that parameter is bound, so every run of
 * a cached statement with a bound limit paid a fresh compile. A chat page's one statement took 0.26 ms
 * against 0.11 ms written so (and its header alone 0.093 against 0.011 ms: bench/data.ts data). An
 * expression is evaluated at run time like the parameter, and leaves the plan as it was. Kysely writes every
 * value as a parameter, so the text matched here is never inside a string literal.
 */
export function unboundLimits(sql: string): string {
  return sql.replace(/\b(limit|offset) \?(?![\w?])/gi, '$1 (? + 0)');
}

/** Enough for every distinct statement the app sends in steady state; a bulk insert's one-off text is evicted. */
const statementCacheSize = 500;

/**
 * Kysely's own SQLite driver prepared every query again; preparing costs more than running a small indexed
 * query (a profile by id: 54 µs through Kysely against 8 µs prepared once, bench/discovery.ts).
 * Statements are kept by SQL text, least recently used first out. Safe because the driver runs one query at
 * a time on its single SQLite connection, so a cached statement is never in use twice.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteSession {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    get inTransaction() {
      return sqlite.inTransaction;
    },
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(unboundLimits(sql));
      cache.set(sql, statement);
      if (cache.size > statementCacheSize) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      return statement;
    },
  };
}

function openPostgres(url: string, options: OpenDatabaseOptions): DatabaseHandle {
  const pool = new (drivers.postgres().Pool)({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  pool.on('connect', useNamedStatements);
  // An idle connection's failure is emitted on the pool, and an 'error' event nobody listens to ends the
  // process. The pool has already dropped that connection; the next query opens a fresh one.
  pool.on('error', (error) => options.onIdleError?.(error));
  const db = new Kysely<Database>({ dialect: counted(new PostgresDialect({ pool }), options.onStatement) });
  const safe = new URL(url);
  safe.password = '';
  const probe = () => sql`select 1`.execute(db).then(() => 'ok' as const);
  return { db, dialect: 'postgres', description: safe.toString(), schema: options.searchPath ?? 'public', probe };
}

/**
 * Kysely's PostgreSQL driver sends every query unnamed, so the server parses and plans it on every run. A
 * query built once with `prepared` (db/prepared.ts) goes as a named statement instead: parsed once per
 * connection, then only bound and run, as a raw `pg` query with a name is. Other queries stay unnamed (a
 * bulk insert's one-off text must not pile up on every connection).
 */
function useNamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof text === 'string' && callback === undefined ? namedStatementOf(text) : undefined;
    return name === undefined ? query(text, values, callback) : query({ name, text, values });
  };
}
