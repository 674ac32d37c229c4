import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

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
}

export interface OpenDatabaseOptions {
  /** `postgres://…` for PostgreSQL, `sqlite:<file>` or nothing for the embedded SQLite file. */
  url?: string | undefined;
  dataDir: string;
  /** PostgreSQL schema to work in (tests give each run its own); it must already exist. */
  searchPath?: string;
  poolSize?: number;
}

export function openDatabase(options: OpenDatabaseOptions): DatabaseHandle {
  const url = options.url;
  if (url && /^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  const file = url?.startsWith('sqlite:') ? url.slice('sqlite:'.length) : path.join(options.dataDir, 'iskra.sqlite');
  return openSqlite(file);
}

function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers work while a write is in progress; the busy timeout makes a second process
  // (a migration, the admin CLI) wait for the lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // SQLite's default page cache is 2 MB; the search reads scattered profile rows and swipe-index pages, and
  // every miss is a system call. 64 MB keeps a city's profiles and the hot indexes in memory (measured with
  // scripts/bench-discovery.ts on 100,000 profiles and a million swipes).
  sqlite.pragma('cache_size = -65536');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', description: `sqlite:${file}`, sqlite };
}

/** Enough for every distinct statement the app sends in steady state; a bulk insert's one-off text is evicted. */
const statementCacheSize = 500;

/**
 * Kysely's SQLite driver prepares every query again; preparing costs more than running a small indexed
 * query (a profile by id: 54 µs through Kysely against 8 µs prepared once, scripts/bench-discovery.ts).
 * Statements are kept by SQL text, least recently used first out. Safe because Kysely runs one query at a
 * time on its single SQLite connection, so a cached statement is never in use twice.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
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
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const safe = new URL(url);
  safe.password = '';
  return { db, dialect: 'postgres', description: safe.toString(), schema: options.searchPath ?? 'public' };
}
