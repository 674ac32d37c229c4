import type { Kysely } from 'kysely';
import type { Database, NewProfile, ProfileUpdate } from '../../../db/schema.ts';

export async function findProfileByUser(db: Kysely<Database>, userId: number) {
  return db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function insertProfile(db: Kysely<Database>, profile: NewProfile): Promise<number> {
  const row = await db.insertInto('profiles').values(profile).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProfile(db: Kysely<Database>, profileId: number, update: ProfileUpdate): Promise<void> {
  await db.updateTable('profiles').set(update).where('id', '=', profileId).execute();
}

export async function deleteProfileRow(db: Kysely<Database>, profileId: number): Promise<void> {
  await db.deleteFrom('profiles').where('id', '=', profileId).execute();
}

export async function listPhotoNames(db: Kysely<Database>, profileId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('photos')
    .select('file_name')
    .where('profile_id', '=', profileId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.file_name);
}

/** Replaces the photo list of a profile with `fileNames` in that order (rows kept where names stay). */
export async function setPhotos(db: Kysely<Database>, profileId: number, fileNames: string[], now: string): Promise<void> {
  const existing = new Set(await listPhotoNames(db, profileId));
  const removed = [...existing].filter((name) => !fileNames.includes(name));
  if (removed.length) await db.deleteFrom('photos').where('profile_id', '=', profileId).where('file_name', 'in', removed).execute();
  for (const [position, fileName] of fileNames.entries()) {
    if (existing.has(fileName)) {
      await db.updateTable('photos').set({ position }).where('profile_id', '=', profileId).where('file_name', '=', fileName).execute();
    } else {
      await db.insertInto('photos').values({ profile_id: profileId, file_name: fileName, position, created_at: now }).execute();
    }
  }
}

export async function findPremiumUntil(db: Kysely<Database>, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('premium_until').where('id', '=', userId).executeTakeFirst();
  return row?.premium_until ?? null;
}

/** The top-bar summary for /api/current_user: the profile and its first photo in one query. */
export async function findProfileSummary(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('profiles')
    .select((eb) => [
      'profiles.id',
      'profiles.name',
      'profiles.age',
      eb
        .selectFrom('photos')
        .select('photos.file_name')
        .whereRef('photos.profile_id', '=', 'profiles.id')
        .orderBy('photos.position')
        .limit(1)
        .as('photo'),
    ])
    .where('profiles.user_id', '=', userId)
    .executeTakeFirst();
}
