import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Runs a reading statement at once and answers its rows, or undefined when it cannot right now (the
 * connection is taken, a transaction is open, the file is locked): the caller then goes Kysely's way.
 */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

/** Keyed by the root Kysely instance only: a transaction is another object, so it always goes Kysely's way. */
const readers = new WeakMap<Kysely<Database>, DirectReader>();

/** Lets prepared queries on `db` read through `reader` (db/client.ts, for SQLite). */
export function allowDirectReads(db: Kysely<Database>, reader: DirectReader): void {
  readers.set(db, reader);
}

/**
 * Runners of a transaction's statements, keyed by the dialect adapter: a transaction is a Kysely object made
 * for it, which shares its database's adapter (and each database has its own).
 */
const transactionRunners = new WeakMap<object, DirectReader>();

/** Lets prepared queries inside a transaction on `db` run through `runner` (db/client.ts, for SQLite). */
export function allowDirectTransactionRuns(db: Kysely<Database>, runner: DirectReader): void {
  transactionRunners.set(db.getExecutor().adapter, runner);
}

/** The direct reader of `db` (or runner, for a transaction), if it has one (see db/prepared.ts). */
export function directReaderOf(db: Kysely<Database>): DirectReader | undefined {
  if (db.isTransaction) return transactionRunners.get(db.getExecutor().adapter);
  return readers.get(db);
}
