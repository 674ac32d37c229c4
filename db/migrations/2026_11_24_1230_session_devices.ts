import type { Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * What the signed-in devices list shows of a session: a coarse label made from the browser's User-Agent at
 * sign-in ("Chrome · Android"; the User-Agent itself is not kept) and when the session was last used
 * (written at most every few minutes, features/sessions/service.ts). Null for sessions from before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('device_label', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute();
  await db.schema.alterTable('sessions').dropColumn('device_label').execute();
}
