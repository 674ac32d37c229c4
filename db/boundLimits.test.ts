import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../server/test/testDatabase.ts';
import { unboundLimits } from './client.ts';

describe('bound LIMIT and OFFSET on SQLite (client.ts unboundLimits)', () => {
  it('writes a bound limit or offset as an expression, and leaves everything else as it was', () => {
    expect(unboundLimits('select "id" from "users" limit ?')).toBe('select "id" from "users" limit (? + 0)');
    expect(unboundLimits('select "id" from "users" order by "id" limit ? offset ?')).toBe(
      'select "id" from "users" order by "id" limit (? + 0) offset (? + 0)',
    );
    expect(
      unboundLimits(
        'select * from (select "id" from "users" limit ?) as "h" left join (select 1 LIMIT ?) as "p" on true',
      ),
    ).toBe(
      'select * from (select "id" from "users" limit (? + 0)) as "h" left join (select 1 LIMIT (? + 0)) as "p" on true',
    );
    // Literal limits, numbered parameters and other parameters stay.
    expect(unboundLimits('select "id" from "users" where "id" > ? limit 5')).toBe(
      'select "id" from "users" where "id" > ? limit 5',
    );
    expect(unboundLimits('select 1 limit ?1')).toBe('select 1 limit ?1');
    // In parentheses, so an expression around the parameter keeps its meaning.
    expect(unboundLimits('select 1 limit ? * 2 offset ? * ?')).toBe('select 1 limit (? + 0) * 2 offset (? + 0) * ?');
  });

  describe('through the app’s SQLite connection', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase('sqlite');
      const now = new Date().toISOString();
      await database.db
        .insertInto('users')
        .values(
          Array.from({ length: 8 }, (_, i) => ({
            email: `u${i}@example.com`,
            password_hash: null,
            language: 'ru' as const,
            created_at: now,
          })),
        )
        .execute();
    });
    afterAll(async () => {
      await database.drop();
    });

    it('answers each run of one cached statement with that run’s limit and offset', async () => {
      const all = (await database.db.selectFrom('users').select('email').orderBy('email').execute()).map(
        (r) => r.email,
      );
      expect(all).toHaveLength(8);
      // One statement text, run with other values each time (the cache keeps it by text).
      for (const [limit, offset] of [
        [1, 0],
        [3, 2],
        [8, 5],
        [2, 7],
        [0, 0],
      ] as const) {
        const rows = await database.db
          .selectFrom('users')
          .select('email')
          .orderBy('email')
          .limit(limit)
          .offset(offset)
          .execute();
        expect(rows.map((r) => r.email)).toEqual(all.slice(offset, offset + limit));
      }
      // A limit and an offset that are expressions of parameters: pages of 2, the third one.
      const { rows } = await sql<{
        email: string;
      }>`select email from users order by email limit ${1} * 2 offset ${2} * ${2}`.execute(database.db);
      expect(rows.map((r) => r.email)).toEqual(all.slice(4, 6));
    });
  });
});
