import type { ProfileId, UserId } from '../../db/schema.ts';

/**
 * A number a test or a benchmark knows to be a user's (a profile's) id, typed as one: an id it assigned
 * to rows it writes straight into the database (a generated world that plans its ids), or one it read off
 * the page. The only places besides database rows and the contract's parsers where a plain number becomes
 * a branded id; the server never needs them (a client's or an admin's ids go through `profileRowId` and
 * `userRowId`).
 */
export const testUserId = (id: number) => id as UserId;
export const testProfileId = (id: number) => id as ProfileId;
