import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../server/test/testDatabase.ts';

/**
 * The tables written on hot read paths are unlogged on PostgreSQL (migration 2026_11_24_2030, and
 * typing_marks of 2026_12_02_0900, written while people type): a commit that touches only them waits for no
 * WAL flush. Every other table stays logged: losing a swipe, a
 * message or a payment to a crash is not acceptable.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('unlogged caches on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('rate_counters, search_pools and typing_marks are unlogged, and no other table is', async () => {
    const { rows } = await sql<{ relname: string; relpersistence: string }>`
      select c.relname, c.relpersistence from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'`.execute(database.db);
    const unlogged = rows.filter((r) => r.relpersistence === 'u').map((r) => r.relname);
    expect(unlogged.sort()).toEqual(['rate_counters', 'search_pools', 'typing_marks']);
    expect(rows.length).toBeGreaterThan(10);
  });
});
