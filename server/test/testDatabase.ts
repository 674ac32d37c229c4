import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type Dialect } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';

export interface TestDatabase extends DatabaseHandle {
  dataDir: string;
  /** PostgreSQL: the URL of this test's own database (a copy of the migrated template); SQLite: undefined. */
  url?: string;
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
 * Every test database starts as a copy of one migrated template, made once per machine for the current
 * migrations (their names and text make its key): migrating costs 0.3 s on SQLite and 1.5–3 s on PostgreSQL
 * on a loaded machine, copying 5 ms and 0.2 s, and the suite makes a few hundred databases.
 */
const migrationsDir = path.resolve(import.meta.dirname, '../../db/migrations');
const templateKey = (() => {
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsDir).sort())
    hash.update(name).update(readFileSync(path.join(migrationsDir, name)));
  // A migration reads the city data set (2026_11_24_1410_city_place_ids.ts).
  hash.update(readFileSync(path.resolve(migrationsDir, '../../server/features/location/cities.json')));
  return hash.digest('hex').slice(0, 12);
})();
/** The schema the PostgreSQL template is migrated in; each copy renames it to its own random name. */
const templateSchema = 'iskra_template';

/**
 * A fresh, migrated database: a new SQLite file in a temporary folder, or a database and schema of its own
 * on the PostgreSQL server, so parallel test files and parallel CI runs never see each other's rows.
 */
export async function createTestDatabase(dialect: Dialect, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'iskra-test-'));
  if (dialect === 'sqlite') {
    const file = path.join(dataDir, 'iskra.sqlite');
    // The restore procedure of docs/operations.md: a backup copied into place as DATA_DIR/iskra.sqlite.
    if (options.restoreFrom) copyFileSync(options.restoreFrom, file);
    else copyFileSync(await sqliteTemplate(), file);
    const handle = openDatabase({ dataDir, onStatement: options.onStatement });
    if (options.restoreFrom) await migrateToLatest(handle.db);
    return {
      ...handle,
      dataDir,
      async drop() {
        await handle.db.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const random = `iskra_test_${randomBytes(6).toString('hex')}`;
  const schema = options.schemaLength
    ? random.padEnd(options.schemaLength, '_x').slice(0, options.schemaLength)
    : random;
  const { name, url } = await copyPostgresTemplate(
    serverUrl,
    `iskra_copy_${Math.floor(Date.now() / 60_000)}_${randomBytes(6).toString('hex')}`,
    schema,
  );
  const handle = openDatabase({ url, dataDir, searchPath: schema, poolSize: 5, onStatement: options.onStatement });
  return {
    ...handle,
    dataDir,
    url,
    async drop() {
      await handle.db.destroy();
      dropInBackground(serverUrl, name);
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
 * DROP DATABASE waits until every other backend on the server has released its files (a signal barrier),
 * 1–2 s on a busy server, 12 s once: a test file does not wait for it. The statement, once sent, runs to
 * its end even when the test process exits first; a copy left behind by a killed run is dropped by the
 * next run's first copy (its name carries the minute it was made).
 */
function dropInBackground(serverUrl: string, name: string): void {
  const client = new pg.Client({ connectionString: serverUrl });
  // A failure after the statement (the server restarting) would be an 'error' event: unheard, it ends the run.
  client.on('error', () => undefined);
  void client
    .connect()
    .then(() => client.query(`drop database if exists ${name} with (force)`))
    .catch(() => undefined)
    .finally(() => void client.end().catch(() => undefined));
}

/** Copies older than a day: left by killed runs (a run that ends drops its own). */
async function dropAbandonedCopies(client: pg.Client): Promise<void> {
  const minutes = Math.floor(Date.now() / 60_000);
  const copies = await client.query<{ datname: string }>(
    `select datname from pg_database where datname like 'iskra\\_copy\\_%'`,
  );
  for (const { datname } of copies.rows) {
    const madeAt = Number(datname.split('_')[2]);
    if (minutes - madeAt > 24 * 60)
      await client.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
  }
}

/** The URL of another database on the same server. */
function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

let sqliteTemplatePath: Promise<string> | undefined;

/** The migrated SQLite template: made in a file of its own, then renamed into place (a rename is atomic). */
function sqliteTemplate(): Promise<string> {
  sqliteTemplatePath ??= (async () => {
    const target = path.join(tmpdir(), `iskra-template-${templateKey}.sqlite`);
    if (existsSync(target)) return target;
    const building = mkdtempSync(path.join(tmpdir(), 'iskra-template-'));
    const handle = openDatabase({ dataDir: building });
    await migrateToLatest(handle.db);
    // Closing checkpoints the write-ahead log into the file, so the one file is the whole database.
    await handle.db.destroy();
    renameSync(path.join(building, 'iskra.sqlite'), target);
    rmSync(building, { recursive: true, force: true });
    return target;
  })();
  return sqliteTemplatePath;
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The migrated PostgreSQL template database, made once per server for these migrations: built under a
 * name of its own and renamed when complete, under an advisory lock so parallel test files make it once.
 */
function ensurePostgresTemplate(serverUrl: string): Promise<string> {
  postgresTemplate ??= buildPostgresTemplate(serverUrl).catch((error: unknown) => {
    // A failed build (the server busy, a lock timeout) is not remembered: the next file tries again.
    postgresTemplate = undefined;
    throw error;
  });
  return postgresTemplate;
}

function buildPostgresTemplate(serverUrl: string): Promise<string> {
  return withAdminClient(serverUrl, async (client) => {
    const template = `iskra_template_${templateKey}`;
    await client.query(`select pg_advisory_lock(hashtext('iskra test template'))`);
    try {
      const exists = await client.query('select 1 from pg_database where datname = $1', [template]);
      await dropAbandonedCopies(client);
      if (exists.rowCount) {
        await client.query(`comment on database ${template} is '${Math.floor(Date.now() / 60_000)}'`);
        return template;
      }
      const building = `iskra_building_${randomBytes(6).toString('hex')}`;
      await client.query(`create database ${building}`);
      const handle = openDatabase({
        url: databaseUrl(serverUrl, building),
        dataDir: tmpdir(),
        searchPath: templateSchema,
        poolSize: 1,
      });
      try {
        await sql`create schema ${sql.id(templateSchema)}`.execute(handle.db);
        await migrateToLatest(handle.db, templateSchema);
      } finally {
        await handle.db.destroy();
      }
      await client.query(`alter database ${building} rename to ${template}`);
      await client.query(`comment on database ${template} is '${Math.floor(Date.now() / 60_000)}'`);
      await dropStaleTemplates(client, template);
      return template;
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('iskra test template'))`);
    }
  });
}

/**
 * Templates of other migrations not built for a day. Another checkout (a branch with a new migration) may be
 * testing on the same server right now: its template, built within the day, is left alone. The build's
 * minute is the template's comment, refreshed whenever a run finds it in place.
 */
async function dropStaleTemplates(client: pg.Client, current: string): Promise<void> {
  const minutes = Math.floor(Date.now() / 60_000);
  const templates = await client.query<{ datname: string; note: string | null }>(
    `select datname, shobj_description(oid, 'pg_database') as note from pg_database where datname like 'iskra\\_template\\_%' and datname <> $1`,
    [current],
  );
  for (const { datname, note } of templates.rows) {
    if (minutes - Number(note ?? 0) > 24 * 60)
      await client.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
  }
}

/**
 * A database of the test's own, copied from the template, its schema renamed to the test's name. The
 * search-change trigger functions keep the search path they were made with (SET search_path FROM CURRENT),
 * so they are pointed at the renamed schema.
 */
async function copyPostgresTemplate(
  serverUrl: string,
  name: string,
  schema: string,
): Promise<{ name: string; url: string }> {
  const template = await ensurePostgresTemplate(serverUrl);
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name} template ${template}`));
  const url = databaseUrl(serverUrl, name);
  await withAdminClient(url, (client) =>
    client.query(`
      alter schema ${templateSchema} rename to ${schema};
      do $$ declare f regprocedure; begin
        for f in select p.oid from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = '${schema}' and p.proconfig is not null loop
          execute format('alter function %s set search_path = %I', f, '${schema}');
        end loop;
      end $$;`),
  );
  return { name, url };
}
