import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../server/test/testDatabase.ts';
import { openDatabase } from './client.ts';

/**
 * PostgreSQL may end an idle pooled connection at any time (a restart, a failover, an administrator, a
 * DROP DATABASE … WITH (FORCE)). node-postgres reports it as an 'error' event on the pool, which ends the
 * process when nobody listens: a web process would crash on a database restart, and a test run fails.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('an idle PostgreSQL connection that is ended', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('is reported, dropped from the pool, and the next query opens another', async () => {
    const failures: Error[] = [];
    let reported: () => void = () => undefined;
    const failed = new Promise<void>((resolve) => (reported = resolve));
    const handle = openDatabase({
      url: database.url,
      dataDir: database.dataDir,
      searchPath: database.schema,
      poolSize: 1,
      onIdleError: (error) => {
        failures.push(error);
        reported();
      },
    });
    try {
      const before = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
      const pid = before.rows[0]?.pid;
      await sql`select pg_terminate_backend(${pid})`.execute(database.db);
      await failed;
      expect(failures[0]?.message).toMatch(/terminating connection/);
      const after = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
      expect(after.rows[0]?.pid).not.toBe(pid);
    } finally {
      await handle.db.destroy();
    }
  });
});
