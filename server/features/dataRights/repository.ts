import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';

/** Everything of the account but the password hash (a secret, not personal data to hand out). */
export async function findAccountForExport(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'language',
      'created_at',
      'verified_at',
      'banned_at',
      'premium_until',
      'telegram_id',
      'telegram_username',
      'google_sub',
      'bot_started_at',
    ])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function findProfileOfUser(db: Kysely<Database>, userId: UserId) {
  return db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function listPhotosOfProfile(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('photos')
    .select(['file_name', 'position', 'created_at'])
    .where('profile_id', '=', profileId)
    .orderBy('position')
    .execute();
}

export async function listSwipesBy(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('swipes')
    .select(['target_id', 'liked', 'created_at', 'message'])
    .where('swiper_id', '=', profileId)
    .orderBy('created_at')
    .execute();
}

/** Every match the profile was ever in, ended ones included. */
export async function listMatchesOf(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('matches')
    .selectAll()
    .where((eb) => eb.or([eb('profile_low', '=', profileId), eb('profile_high', '=', profileId)]))
    .execute();
}

/** Only what the profile wrote: the other side's messages are their personal data, not the caller's. */
export async function listMessagesSentBy(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('messages')
    .select(['id', 'conversation_id', 'content', 'created_at', 'read_at'])
    .where('sender_id', '=', profileId)
    .orderBy('id')
    .execute();
}

export async function listBlocksBy(db: Kysely<Database>, profileId: ProfileId) {
  return db.selectFrom('blocks').select(['blocked_id', 'created_at']).where('blocker_id', '=', profileId).execute();
}

export async function listReportsBy(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('reports')
    .select(['reported_id', 'reason', 'comment', 'created_at'])
    .where('reporter_id', '=', profileId)
    .execute();
}

export async function listPaymentsOf(db: Kysely<Database>, userId: UserId) {
  return db.selectFrom('payments').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** The photo files (and their blurred copies) of the user's profile, to remove from storage after the rows go. */
export async function listPhotoFilesOfUser(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('photos')
    .innerJoin('profiles', 'profiles.id', 'photos.profile_id')
    .select(['photos.file_name', 'photos.blur_name'])
    .where('profiles.user_id', '=', userId)
    .execute();
}

/** The selfies of the user's undecided checks: files to remove with their photos (a decided one's is gone). */
export async function listSelfieFilesOfUser(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('photo_verifications')
    .innerJoin('profiles', 'profiles.id', 'photo_verifications.profile_id')
    .select(['photo_verifications.selfie_name as file_name'])
    .where('profiles.user_id', '=', userId)
    .where('photo_verifications.selfie_name', 'is not', null)
    .execute();
}

/** Deletes the user; everything else of theirs goes by the database's cascades. False when there was no such user. */
/** The user's profile and, by its cascades, their photos, swipes, matches, conversations and blocks. */
export async function deleteProfileOfUser(db: Kysely<Database>, userId: UserId): Promise<void> {
  await db.deleteFrom('profiles').where('user_id', '=', userId).execute();
}

export async function deleteUser(db: Kysely<Database>, userId: UserId): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
