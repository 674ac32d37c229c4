import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type Dialect } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';

export interface TestDatabase extends DatabaseHandle {
  dataDir: string;
  drop(): Promise<void>;
}

/** The databases the API suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set (CI sets it). */
export function testDialects(): Dialect[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabaseOptions {
  /** SQLite: start from this backup file, restored as docs/operations.md says. */
  restoreFrom?: string;
  /** PostgreSQL: a schema name this long (at least 23 characters, at most 63 as env.ts allows), still unique. */
  schemaLength?: number;
  /** Called with every statement the database is sent (db/statementCounter.ts). */
  onStatement?: (sql: string) => void;
}

/**
 * A fresh, migrated database: a new SQLite file in a temporary folder, or a schema of its own on the
 * PostgreSQL server, so parallel test files and parallel CI runs never see each other's rows.
 */
export async function createTestDatabase(dialect: Dialect, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-test-'));
  if (dialect === 'sqlite') {
    // The restore procedure of docs/operations.md: a backup copied into place as DATA_DIR/iskra.sqlite.
    if (options.restoreFrom) copyFileSync(options.restoreFrom, path.join(dataDir, 'iskra.sqlite'));
    const handle = openDatabase({ dataDir, onStatement: options.onStatement });
    await migrateToLatest(handle.db);
    return {
      ...handle,
      dataDir,
      async drop() {
        await handle.db.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const random = `iskra_test_${randomBytes(6).toString('hex')}`;
  const schema = options.schemaLength ? random.padEnd(options.schemaLength, '_x').slice(0, options.schemaLength) : random;
  await withAdminClient(url, (client) => client.query(`create schema ${schema}`));
  const handle = openDatabase({ url, dataDir, searchPath: schema, poolSize: 5, onStatement: options.onStatement });
  await migrateWithRetry(handle.db, schema);
  return {
    ...handle,
    dataDir,
    async drop() {
      await handle.db.destroy();
      await withAdminClient(url, (client) => client.query(`drop schema ${schema} cascade`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One short-lived PostgreSQL client for schema and database chores (tests, the load bench). */
export async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Kysely's migrator first lists tables through PostgreSQL's catalog, and that query fails with "schema
 * ... does not exist" when another test file drops its own schema at the same moment. Nothing has been
 * applied by then, so trying again is safe.
 */
async function migrateWithRetry(db: Parameters<typeof migrateToLatest>[0], schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await migrateToLatest(db, schema);
      return;
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
      if (attempt >= 5 || !/does not exist/.test(cause)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
