import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../server/test/testDatabase.ts';
import { directReaderOf, type DirectReader } from './directReads.ts';
import { prepared } from './prepared.ts';

/**
 * Prepared queries on SQLite read at once while nobody holds the connection (retryingSqliteDriver.ts readNow),
 * and go Kysely's way otherwise: never inside someone else's open transaction, never past another process's lock.
 */
describe('direct reads on sqlite', () => {
  let database: TestDatabase;
  let reader: DirectReader;
  const now = new Date().toISOString();
  const byEmail = prepared((db, email: string) =>
    db.selectFrom('users').select(['id', 'email']).where('email', '=', email),
  );

  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    const found = directReaderOf(database.db);
    if (!found) throw new Error('no direct reader for sqlite');
    reader = found;
    await database.db
      .insertInto('users')
      .values({ email: 'a@example.com', password_hash: null, language: 'ru', created_at: now })
      .execute();
  });
  afterEach(async () => {
    await database.drop();
  });

  it('reads at once while the connection is free, and declines a statement that does not read', () => {
    expect(reader('select email from users where email = ?', ['a@example.com'])).toEqual([{ email: 'a@example.com' }]);
    expect(reader("update users set language = 'en'", [])).toBeUndefined();
    expect(reader('select language from users', [])).toEqual([{ language: 'ru' }]);
  });

  it('declines while a transaction holds the connection: a prepared read waits, and never sees a row rolled back', async () => {
    let inserted = () => {};
    const holding = new Promise<void>((resolve) => (inserted = resolve));
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const rolledBack = database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({ email: 'b@example.com', password_hash: null, language: 'ru', created_at: now })
        .execute();
      inserted();
      await finished;
      throw new Error('rolled back');
    });
    await holding;
    // Run on the one connection now, it would read the transaction's own uncommitted row.
    expect(reader('select email from users where email = ?', ['b@example.com'])).toBeUndefined();
    const read = byEmail.first(database.db, 'b@example.com');
    finish();
    await expect(rolledBack).rejects.toThrow('rolled back');
    expect(await read).toBeUndefined();
    expect((await byEmail.first(database.db, 'a@example.com'))?.email).toBe('a@example.com');
  });

  it('runs the prepared statements of a transaction at once inside it, and they roll back with it', async () => {
    const insert = prepared((db, email: string) =>
      db.insertInto('users').values({ email, password_hash: null, language: 'ru', created_at: now }),
    );
    const rolledBack = database.db.transaction().execute(async (trx) => {
      // A transaction's Kysely object has a runner of its own: its statements run on the connection it holds.
      expect(directReaderOf(trx)).toBeDefined();
      expect(await insert.all(trx, 'd@example.com')).toEqual([]);
      expect((await byEmail.first(trx, 'd@example.com'))?.email).toBe('d@example.com');
      // Outside it, nobody reads what it has not committed.
      expect(reader('select email from users where email = ?', ['d@example.com'])).toBeUndefined();
      throw new Error('rolled back');
    });
    await expect(rolledBack).rejects.toThrow('rolled back');
    expect(await byEmail.first(database.db, 'd@example.com')).toBeUndefined();
    await database.db.transaction().execute(async (trx) => {
      await insert.all(trx, 'e@example.com');
    });
    expect((await byEmail.first(database.db, 'e@example.com'))?.email).toBe('e@example.com');
  });

  it('declines while someone holds the connection with no transaction open, and inside a transaction begun on the raw handle', async () => {
    await database.db.connection().execute(async (connection) => {
      expect(reader('select email from users', [])).toBeUndefined();
      expect(await byEmail.first(connection, 'a@example.com')).toMatchObject({ email: 'a@example.com' });
    });
    const raw = database.sqlite;
    if (!raw) throw new Error('no sqlite handle');
    raw.prepare('begin').run();
    try {
      expect(reader('select email from users', [])).toBeUndefined();
    } finally {
      raw.prepare('rollback').run();
    }
    expect(reader('select email from users', [])).toEqual([{ email: 'a@example.com' }]);
  });

  it('counts a statement read at once exactly once, as statement budgets expect', async () => {
    const seen: string[] = [];
    const counted = await createTestDatabase('sqlite', { onStatement: (text) => seen.push(text) });
    try {
      await counted.db
        .insertInto('users')
        .values({ email: 'a@example.com', password_hash: null, language: 'ru', created_at: now })
        .execute();
      seen.length = 0;
      expect(await byEmail.first(counted.db, 'a@example.com')).toMatchObject({ email: 'a@example.com' });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(/^select/);
      seen.length = 0;
      await counted.db.transaction().execute((trx) => byEmail.first(trx, 'a@example.com'));
      expect(seen.map((s) => s.split(' ')[0])).toEqual(['begin', 'select', 'commit']);
    } finally {
      await counted.drop();
    }
  });

  it('declines when another process holds the write lock (nothing ran), and then the statement waits its turn', () => {
    const other = new SQLite(path.join(database.dataDir, 'iskra.sqlite'));
    try {
      other.prepare('begin immediate').run();
      const insert =
        "insert into users (email, password_hash, language, created_at) values ('c@example.com', null, 'ru', ?) returning email";
      expect(reader(insert, [now])).toBeUndefined();
      expect(reader('select count(*) as n from users', [])).toEqual([{ n: 1 }]);
      other.prepare('commit').run();
      expect(reader(insert, [now])).toEqual([{ email: 'c@example.com' }]);
    } finally {
      other.close();
    }
  });
});
