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

/** The direct reader of `db`, if it has one (see db/prepared.ts). */
export function directReaderOf(db: Kysely<Database>): DirectReader | undefined {
  return readers.get(db);
}
