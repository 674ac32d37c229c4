import { sql, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * What each person has taken notice of, for the badges and for notifications that wait to see whether the
 * app showed their event (issue #19). SQLite adds one column per ALTER TABLE, hence one statement each.
 *
 * - `swipes.target_seen`: 1 once the person liked opened their Likes screen after this like. A flag per like
 *   rather than a "likers seen at" time per person: a time compares clocks read before the like's locks, so a
 *   like committed just after the mark with an earlier time (or in the same millisecond) would pass unseen.
 *   The flag is set only on rows that exist when the mark runs and cleared whenever a swipe becomes a like,
 *   so the order of commits alone decides. Likes already given count as seen: nobody's badge lights up with
 *   old likes on the day this ships.
 * - `matches.low_seen`, `matches.high_seen`: how far that side has taken notice of the match, only ever
 *   raised: 0 not yet, 1 its overlay was shown, 2 opened (its profile or chat; opened implies shown). Matches
 *   made before this count as opened.
 * - `notification_jobs.event_id`: the live event the notification announces; acknowledging that event
 *   (POST /api/events/ack) settles it. Events are cleaned up after a week, long after any job is due.
 * - `notification_jobs.other_profile_id`: the person it is about (the match, the liker, the sender): the
 *   worker checks whether that is still news, and the job goes with that person's profile.
 * - `users.online_until` goes: a user with the app open is no longer taken to have seen everything.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('swipes')
    .addColumn('target_seen', 'smallint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`target_seen in (0, 1)`),
    )
    .execute();
  await sql`update swipes set target_seen = 1 where liked = 1`.execute(db);
  // The unseen likes to someone are few (none right after they look), so counting and marking them stays cheap.
  // `liked` is always 1 here, yet among the columns: so SQLite (without statistics) prefers this index to
  // swipes_target_liked for the likers count, which it covers.
  await db.schema
    .createIndex('swipes_unseen_likes')
    .on('swipes')
    .columns(['target_id', 'liked', 'swiper_id'])
    .where(sql<boolean>`liked = 1 and target_seen = 0`)
    .execute();

  for (const side of ['low_seen', 'high_seen']) {
    await db.schema
      .alterTable('matches')
      .addColumn(side, 'smallint', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`${sql.ref(side)} in (0, 1, 2)`),
      )
      .execute();
  }
  await sql`update matches set low_seen = 2, high_seen = 2`.execute(db);

  await db.schema
    .alterTable('notification_jobs')
    .addColumn('event_id', 'integer', (c) => c.references('events.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('notification_jobs')
    .addColumn('other_profile_id', 'integer', (c) => c.references('profiles.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('notification_jobs_event').on('notification_jobs').column('event_id').execute();
  await db.schema
    .createIndex('notification_jobs_other_profile')
    .on('notification_jobs')
    .column('other_profile_id')
    .execute();

  // Unread messages are few beside the read ones: the unread badge, the chat list's marks and marking read
  // find them without reading a long conversation's history.
  await db.schema
    .createIndex('messages_unread')
    .on('messages')
    .columns(['conversation_id', 'sender_id'])
    .where(sql<boolean>`read_at is null`)
    .execute();

  await db.schema.alterTable('users').dropColumn('online_until').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('online_until', 'text').execute();
  await db.schema.dropIndex('messages_unread').execute();
  await db.schema.dropIndex('notification_jobs_other_profile').execute();
  await db.schema.dropIndex('notification_jobs_event').execute();
  for (const column of ['other_profile_id', 'event_id'])
    await db.schema.alterTable('notification_jobs').dropColumn(column).execute();
  for (const column of ['high_seen', 'low_seen']) await db.schema.alterTable('matches').dropColumn(column).execute();
  await db.schema.dropIndex('swipes_unseen_likes').execute();
  await db.schema.alterTable('swipes').dropColumn('target_seen').execute();
}
