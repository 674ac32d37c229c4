import { setTimeout as sleep } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  IdentifierNode,
  RawNode,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  createQueryId,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { DatabaseBusyError, isSqliteBusy } from './errors.ts';

/** What the driver needs of a better-sqlite3 connection (client.ts hands it one with a statement cache). */
export interface SqliteSession {
  prepare(sql: string): SQLite.Statement;
  readonly inTransaction: boolean;
  close(): void;
}

/** The first pause after the lock was found taken, doubled on every try up to the longest. */
const firstPauseMs = 2;
const longestPauseMs = 50;

/**
 * Kysely's own SQLite driver, changed where another process holding the file's write lock matters.
 *
 * better-sqlite3 waits for a lock synchronously (busy_timeout), which stops Node's event loop: every other
 * request, health check and photo download of the process stood still behind one write. Here the connection
 * runs with busy_timeout 0 and the wait happens between tries, asynchronously, with the connection handed
 * to other work meanwhile (reads in WAL mode never need the write lock, so they go on being served). Only a
 * statement outside a transaction is tried again (it either ran whole or not at all) and `begin immediate`,
 * which takes the write lock before a transaction reads anything; a deferred `begin` would take it at the
 * first write, and a transaction that has read an older snapshot can never get it (SQLITE_BUSY_SNAPSHOT),
 * so it could not be retried. When the lock stays taken longer than the budget the statement fails with
 * DatabaseBusyError (HTTP 503 `database_busy` with Retry-After).
 */
export class RetryingSqliteDriver implements Driver {
  readonly #session: SqliteSession;
  readonly #budgetMs: number;
  readonly #mutex = new ConnectionMutex();
  readonly #connection: DatabaseConnection;

  /** `budgetMs`: how long a statement may keep finding the write lock taken before it gives up. */
  constructor(session: SqliteSession, budgetMs: number) {
    this.#session = session;
    this.#budgetMs = budgetMs;
    this.#connection = new RetryingSqliteConnection(session, (attempt) => this.#retrying(attempt, this.#budgetMs));
  }

  async init(): Promise<void> {
    // The connection is opened by client.ts, before the driver exists.
  }

  /**
   * A statement that reads (a select, or a write with `returning`), run at once when nobody holds the
   * connection and no transaction is open; undefined otherwise, or when the file's lock is taken (nothing
   * ran then: a statement outside a transaction runs whole or not at all), and the caller queues as usual.
   * Synchronous from the free mutex to the rows, so nothing can come in between: the same as taking the
   * connection and giving it back, without the dozen promises Kysely's executor and the mutex cost (a profile
   * by id: 6 µs against 3 µs for the raw prepared statement, bench/data.ts).
   */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    if (this.#mutex.held || this.#session.inTransaction) return undefined;
    try {
      // Preparing a new text may meet the lock too (a schema another process changed): inside the try.
      const statement = this.#session.prepare(sql);
      return statement.reader ? statement.all(parameters) : undefined;
    } catch (error) {
      if (isSqliteBusy(error)) return undefined;
      throw error;
    }
  }

  /**
   * A statement of the open transaction, run at once: its rows for a reader, none otherwise; undefined when no
   * transaction holds the connection (the caller then goes Kysely's way). Only a transaction's own code can
   * call this while one is open: SQLite has one connection, and the transaction holds it until it ends. As
   * Kysely's way would, a lock met here fails at once (a transaction's statement is never tried again alone).
   * What this saves: the promises of Kysely's executor and its connection provider around a statement of a
   * few microseconds (a like's four prepared statements, bench/data.ts).
   */
  runInTransaction(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    if (!this.#mutex.held || !this.#session.inTransaction) return undefined;
    try {
      const statement = this.#session.prepare(sql);
      if (statement.reader) return statement.all(parameters);
      statement.run(parameters);
      return [];
    } catch (error) {
      if (isSqliteBusy(error)) throw new DatabaseBusyError(0, { cause: error });
      throw error;
    }
  }

  /** SQLite has one connection: whoever holds the mutex has it, others queue (asynchronously). */
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  releaseConnection(): Promise<void> {
    this.#mutex.unlock();
    return Promise.resolve();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // A read-only transaction never needs the write lock (WAL); every other one takes it up front.
    await connection.executeQuery(CompiledQuery.raw(settings.accessMode === 'read only' ? 'begin' : 'begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('savepoint', name), createQueryId()));
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('rollback to', name), createQueryId()));
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('release', name), createQueryId()));
  }

  destroy(): Promise<void> {
    this.#session.close();
    return Promise.resolve();
  }

  /**
   * Whether a write could take the lock now (for /api/health): `begin immediate` and straight back, tried
   * for `budgetMs` at most. Throws when the database fails otherwise (closed, unreadable).
   */
  async probeWriteLock(budgetMs: number): Promise<'ok' | 'busy'> {
    await this.#mutex.lock();
    try {
      await this.#retrying(() => this.#session.prepare('begin immediate').run(), budgetMs);
      this.#session.prepare('rollback').run();
      return 'ok';
    } catch (error) {
      if (error instanceof DatabaseBusyError) return 'busy';
      throw error;
    } finally {
      this.#mutex.unlock();
    }
  }

  /** Runs `attempt` (the caller holds the mutex), trying again while the lock is taken and that is safe. */
  async #retrying<T>(attempt: () => T, budgetMs: number): Promise<T> {
    // Inside a transaction a failed statement cannot be tried alone: the transaction's reads came first.
    const retryable = !this.#session.inTransaction;
    const started = performance.now();
    for (let pause = firstPauseMs; ; pause = Math.min(pause * 2, longestPauseMs)) {
      try {
        return attempt();
      } catch (error) {
        if (!isSqliteBusy(error)) throw error;
        const waited = performance.now() - started;
        if (!retryable || waited >= budgetMs) throw new DatabaseBusyError(Math.round(waited), { cause: error });
        // Nothing of this statement holds the connection: let other requests use it while we wait. Jitter
        // keeps the waiting requests of this process from trying all at once.
        this.#mutex.unlock();
        try {
          await sleep(Math.min(budgetMs - waited, pause * (0.5 + Math.random() / 2)));
        } finally {
          await this.#mutex.lock();
        }
      }
    }
  }
}

/** Plugs the driver into Kysely with SQLite's own compiler, adapter and introspector. */
export class RetryingSqliteDialect implements Dialect {
  constructor(private readonly driver: RetryingSqliteDriver) {}

  createDriver(): Driver {
    return this.driver;
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): SqliteAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): SqliteIntrospector {
    return new SqliteIntrospector(db);
  }
}

class RetryingSqliteConnection implements DatabaseConnection {
  constructor(
    private readonly session: SqliteSession,
    private readonly retrying: <T>(attempt: () => T) => Promise<T>,
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.retrying(() => runStatement<R>(this.session, compiledQuery));
  }

  streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return toAsync(streamRows<R>(this.session, compiledQuery));
  }
}

/** Row by row, as Kysely's own driver streams (a select only). */
function* streamRows<R>(session: SqliteSession, { sql, parameters, query }: CompiledQuery): Generator<QueryResult<R>> {
  if (!SelectQueryNode.is(query)) throw new Error('Sqlite driver only supports streaming of select queries');
  // Not retried (rows may already have gone out), but reported like any other busy database.
  try {
    for (const row of session.prepare(sql).iterate(parameters)) yield { rows: [row as R] };
  } catch (error) {
    if (isSqliteBusy(error)) throw new DatabaseBusyError(0, { cause: error });
    throw error;
  }
}

/** A sync iterator through the async interface Kysely's streaming wants; a throw becomes a rejection. */
function toAsync<T>(items: Iterator<T>): AsyncIterableIterator<T> {
  const iterator: AsyncIterableIterator<T> = {
    next: () => new Promise((resolve) => resolve(items.next())),
    return: () => new Promise((resolve) => resolve(items.return?.() ?? { done: true, value: undefined })),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** As Kysely's own driver runs a statement: rows for a reader, counts and the new row id otherwise. */
function runStatement<R>(session: SqliteSession, { sql, parameters }: CompiledQuery): QueryResult<R> {
  const statement = session.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** `savepoint "name"` and the like, the name quoted by the compiler as Kysely's own driver does. */
function savepointCommand(command: string, name: string): RawNode {
  return RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]);
}

/** One holder at a time, in arrival order. */
class ConnectionMutex {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  /** Whether someone holds it (nobody waits while it is free). */
  get held(): boolean {
    return this.#held;
  }

  lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  unlock(): void {
    // Handed straight to the next in line, so nobody can slip in between.
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}
