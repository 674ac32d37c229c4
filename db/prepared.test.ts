import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../server/test/testDatabase.ts';
import { namedStatementOf, prepared, preparedByShape } from './prepared.ts';

describe.each(testDialects())('prepared queries on %s', (dialect) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    const now = new Date().toISOString();
    await database.db
      .insertInto('users')
      .values(
        ['a@example.com', 'b@example.com', 'c@example.com'].map((email) => ({
          email,
          password_hash: null,
          language: 'ru',
          created_at: now,
        })),
      )
      .execute();
  });
  afterEach(async () => {
    await database.drop();
  });

  it('builds once, then runs with each call’s own arguments, also inside a transaction', async () => {
    let builds = 0;
    const byEmail = prepared((db, email: string) => {
      builds++;
      return db.selectFrom('users').select(['id', 'email']).where('email', '=', email);
    });
    expect((await byEmail.first(database.db, 'a@example.com'))?.email).toBe('a@example.com');
    expect((await byEmail.first(database.db, 'b@example.com'))?.email).toBe('b@example.com');
    expect(await byEmail.first(database.db, 'nobody@example.com')).toBeUndefined();
    await database.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ email: 'c2@example.com' }).where('email', '=', 'c@example.com').execute();
      // Sees the transaction's own write: it ran on the transaction's connection.
      expect((await byEmail.first(trx, 'c2@example.com'))?.email).toBe('c2@example.com');
    });
    expect(builds).toBe(1);
  });

  it('runs on PostgreSQL as a named statement, parsed once per connection', async () => {
    const byLanguage = prepared((db, language: 'ru' | 'en') =>
      db.selectFrom('users').select('email').where('language', '=', language).orderBy('email'),
    );
    const plain = database.db.selectFrom('users').select('id').where('email', '=', 'a@example.com');
    const byEmails = preparedByShape(
      (db, count: number, slot) =>
        db
          .selectFrom('users')
          .select('email')
          .where(
            'email',
            'in',
            Array.from({ length: count }, (_, i) => slot(`e${i}`)),
          ),
      (count) => String(count),
      { named: false },
    );
    await database.db.connection().execute(async (connection) => {
      expect((await byLanguage.all(connection, 'ru')).map((r) => r.email)).toEqual([
        'a@example.com',
        'b@example.com',
        'c@example.com',
      ]);
      expect(await byLanguage.all(connection, 'en')).toEqual([]);
      await connection.executeQuery(plain.compile());
      expect(await byEmails(connection, 2, { e0: 'a@example.com', e1: 'b@example.com' })).toHaveLength(2);
      if (dialect !== 'postgres') return;
      const named = await sql<{
        name: string;
        statement: string;
      }>`select name, statement from pg_prepared_statements`.execute(connection);
      // The prepared query is kept under its name; an ordinary builder query, or one prepared by shape
      // with `named: false` (the search's unbounded shapes), is not kept at all.
      expect(named.rows.map((r) => r.name)).toEqual([expect.stringMatching(/^iskra_\d+$/)]);
      expect(named.rows[0]?.name).toBe(namedStatementOf(named.rows[0]?.statement ?? ''));
    });
  });

  it('puts each argument where it was used, also one used twice and beside fixed values', async () => {
    const between = prepared((db, low: string, high: string) =>
      db
        .selectFrom('users')
        .select('email')
        .where('email', '>=', low)
        .where('email', '<=', high)
        .where('language', '=', 'ru')
        .where((eb) => eb.or([eb('email', '=', low), eb('email', '!=', high)]))
        .orderBy('email'),
    );
    expect((await between.all(database.db, 'a@example.com', 'c@example.com')).map((r) => r.email)).toEqual([
      'a@example.com',
      'b@example.com',
    ]);
    expect((await between.all(database.db, 'b@example.com', 'c@example.com')).map((r) => r.email)).toEqual([
      'b@example.com',
    ]);
  });

  it('builds once per shape and binds named values, a list of any length included', async () => {
    const builds: number[] = [];
    const byEmails = preparedByShape(
      (db, count: number, slot) => {
        builds.push(count);
        const emails = Array.from({ length: count }, (_, i) => slot(`e${i}`));
        return db
          .selectFrom('users')
          .select('email')
          .where('email', 'in', emails)
          .where('language', '=', slot('language'))
          .orderBy('email');
      },
      (count) => String(count),
    );
    const run = (emails: string[], language = 'ru') =>
      byEmails(database.db, emails.length, {
        language,
        ...Object.fromEntries(emails.map((e, i) => [`e${i}`, e])),
      }).then((rows) => rows.map((r) => r.email));
    expect(await run(['a@example.com'])).toEqual(['a@example.com']);
    expect(await run(['c@example.com', 'a@example.com'])).toEqual(['a@example.com', 'c@example.com']);
    expect(await run(['b@example.com'])).toEqual(['b@example.com']);
    expect(await run(['b@example.com'], 'en')).toEqual([]);
    expect(builds).toEqual([1, 2]);
    await expect(byEmails(database.db, 1, { language: 'ru' })).rejects.toThrow('no value for e0');
  });
});
