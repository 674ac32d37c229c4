import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { LiveEvent } from '../../contract/events.ts';

/** A live event for one user: the type decides the payload's shape (server/contract/events.ts). */
export type NewEvent = LiveEvent & { userId: UserId };

export async function insertEvents(db: Kysely<Database>, events: readonly NewEvent[], now: string): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('events')
    .values(events.map((e) => ({ user_id: e.userId, type: e.type, payload: JSON.stringify(e.payload), created_at: now })))
    .execute();
}

export async function eventsAfter(db: Kysely<Database>, userId: UserId, afterId: number, limit: number) {
  return db.selectFrom('events').select(['id', 'type', 'payload']).where('user_id', '=', userId).where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

export async function lastEventId(db: Kysely<Database>, userId: UserId): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.id ?? 0;
}

/** Until when the user counts as having the app open (the notification worker skips them until then). */
export async function setOnlineUntil(db: Kysely<Database>, userId: UserId, until: string): Promise<void> {
  await db.updateTable('users').set({ online_until: until }).where('id', '=', userId).execute();
}
