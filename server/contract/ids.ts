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
    .check(z.int(`${name} must be a whole number`), z.positive(`${name} must be positive`), z.lte(maxRowId, `${name} is too large`));
}
