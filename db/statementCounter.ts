import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/**
 * Reports every statement a Kysely instance sends, transaction control (begin, commit, rollback, savepoints)
 * included: each is a round trip on PostgreSQL, and Kysely's own `log` hook sees none of them. For tests that
 * pin a request's statement budget and for bench/data.ts.
 */
export function countingDialect(inner: Dialect, onStatement: (sql: string) => void): Dialect {
  return {
    createDriver: () => new CountingDriver(inner.createDriver(), onStatement),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

/** A running count with the statements themselves, to show what a budget went over on. */
export class StatementLog {
  readonly statements: string[] = [];
  private on = false;

  readonly record = (sql: string): void => {
    if (this.on) this.statements.push(sql);
  };

  /** The statements `work` sent (nothing else may run meanwhile on the same database). */
  async during(work: () => Promise<unknown>): Promise<string[]> {
    this.statements.length = 0;
    this.on = true;
    try {
      await work();
    } finally {
      this.on = false;
    }
    return [...this.statements];
  }
}

class CountingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly onStatement: (sql: string) => void,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.onStatement(query.sql);
    return this.inner.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.onStatement(query.sql);
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const innerOf = (connection: DatabaseConnection) =>
  connection instanceof CountingConnection ? connection.inner : connection;

class CountingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly onStatement: (sql: string) => void,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new CountingConnection(await this.inner.acquireConnection(), this.onStatement);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    this.onStatement('begin');
    return this.inner.beginTransaction(innerOf(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.onStatement('commit');
    return this.inner.commitTransaction(innerOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.onStatement('rollback');
    return this.inner.rollbackTransaction(innerOf(connection));
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    this.onStatement(`savepoint ${name}`);
    await this.inner.savepoint?.(innerOf(connection), name, compileQuery);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    this.onStatement(`rollback to ${name}`);
    await this.inner.rollbackToSavepoint?.(innerOf(connection), name, compileQuery);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    this.onStatement(`release ${name}`);
    await this.inner.releaseSavepoint?.(innerOf(connection), name, compileQuery);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
