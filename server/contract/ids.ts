import { z } from 'zod/mini';

/**
 * Row ids are 32-bit in the database (`serial`/`integer` on PostgreSQL): a larger number names no row, and
 * PostgreSQL refuses to compare an integer column with it ("out of range for type integer") where SQLite
 * just finds nothing. Ids from the client are checked against this bound, so both answer alike.
 */
export const maxRowId = 2_147_483_647;

/** A row id from the client: a whole number from 1 to `maxRowId`, given as a number or as text. */
export function rowId(name: string) {
  return z.coerce
    .number({ error: `${name} is required` })
    .check(
      z.int(`${name} must be a whole number`),
      z.positive(`${name} must be positive`),
      z.lte(maxRowId, `${name} is too large`),
    );
}

/**
 * An account (`users.id`) and a profile (`profiles.id`) are different rows with different ids, both plain
 * numbers at run time; the brands keep a function that wants one from being given the other. They are
 * zod's own brands (`.brand()` adds them to a schema's output at no run-time cost), spelled out again in
 * db/schema.ts, which imports nothing of ours: a brand is structural, so both spellings are one type
 * (server/brandedIds.test.ts holds them to it).
 */
export type UserId = number & z.$brand<'UserId'>;
export type ProfileId = number & z.$brand<'ProfileId'>;

/** Ids in the server's answers, typed for what they name (the app, and the tests, read them back so). */
export const profileIdField = z.number().check(z.int()).brand<'ProfileId'>();
export const userIdField = z.number().check(z.int()).brand<'UserId'>();

/** A row id from the client that names a profile (`profile_id` of a like, a block, a report, a new conversation). */
export function profileRowId(name: string) {
  return rowId(name).brand<'ProfileId'>();
}

/** A row id typed in by an admin that names an account. */
export function userRowId(name: string) {
  return rowId(name).brand<'UserId'>();
}
