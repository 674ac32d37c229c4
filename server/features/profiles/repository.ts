import type { Kysely } from 'kysely';
import { prepared } from '../../../db/prepared.ts';
import type { Database, NewProfile, PreferredGender, ProfileId, ProfileUpdate, UserId } from '../../../db/schema.ts';
import type { PhotoScreen } from '../moderationModels/index.ts';
import { insertConsentedFace } from '../photoVerification/index.ts';
import type { StoredPhoto } from '../photos/index.ts';

export async function findProfileByUser(db: Kysely<Database>, userId: UserId) {
  return db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function insertProfile(db: Kysely<Database>, profile: NewProfile): Promise<ProfileId> {
  const row = await db.insertInto('profiles').values(profile).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProfile(db: Kysely<Database>, profileId: ProfileId, update: ProfileUpdate): Promise<void> {
  await db.updateTable('profiles').set(update).where('id', '=', profileId).execute();
}

export async function deleteProfileRow(db: Kysely<Database>, profileId: ProfileId): Promise<void> {
  await db.deleteFrom('profiles').where('id', '=', profileId).execute();
}

const photoNames = prepared((db, profileId: ProfileId) =>
  db.selectFrom('photos').select('file_name').where('profile_id', '=', profileId).orderBy('position').orderBy('id'),
);
/**
 * Every photo file name of a profile in display order, HELD ONES INCLUDED: for the owner's own edits only
 * (setPhotos). What others may see is listShownPhotoNames; this one stays out of the feature's face.
 */
export async function listPhotoNamesWithHeld(db: Kysely<Database>, profileId: ProfileId): Promise<string[]> {
  return (await photoNames.all(db, profileId)).map((r) => r.file_name);
}

const shownPhotoNames = prepared((db, profileId: ProfileId) =>
  db
    .selectFrom('photos')
    .select('file_name')
    .where('profile_id', '=', profileId)
    .where('moderation', '=', 'clear')
    .orderBy('position')
    .orderBy('id'),
);
/** What others may see of a profile's photos: every photo but those the upload screen held (docs/trust.md). */
export async function listShownPhotoNames(db: Kysely<Database>, profileId: ProfileId): Promise<string[]> {
  return (await shownPhotoNames.all(db, profileId)).map((r) => r.file_name);
}

/**
 * The selfies of a profile's undecided checks (a decided one's file is already gone): stored as uploads
 * (the photo, its thumbnail), so a deleted profile's files are removed with its photos.
 */
export async function listSelfieFiles(db: Kysely<Database>, profileId: ProfileId): Promise<StoredPhoto[]> {
  const rows = await db
    .selectFrom('photo_verifications')
    .select('selfie_name')
    .where('profile_id', '=', profileId)
    .where('selfie_name', 'is not', null)
    .execute();
  return rows.flatMap((r) => (r.selfie_name ? [{ fileName: r.selfie_name, blurName: null }] : []));
}

export async function listPhotos(db: Kysely<Database>, profileId: ProfileId): Promise<StoredPhoto[]> {
  const rows = await db
    .selectFrom('photos')
    .select(['file_name', 'blur_name'])
    .where('profile_id', '=', profileId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ fileName: r.file_name, blurName: r.blur_name }));
}

/** The owner's photos in display order, with whether screening held each (own profile's `under_review`). */
export async function listOwnPhotos(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('photos')
    .select(['file_name', 'moderation'])
    .where('profile_id', '=', profileId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Photo ids in display order (the main photo first). */
export async function listPhotoIds(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('photos')
    .select(['id', 'file_name'])
    .where('profile_id', '=', profileId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function isVerified(db: Kysely<Database>, profileId: ProfileId): Promise<boolean> {
  const row = await db.selectFrom('profiles').select('verified').where('id', '=', profileId).executeTakeFirst();
  return row?.verified === 1;
}

/**
 * Sets or clears the verified badge: the one writer of profiles.verified (selfie checks, the console, a
 * changed main photo). Only a real change writes; the migration 2026_12_03_1000_verified_search_stamp's
 * trigger then stamps search_changed_at, so verifiedOnly searches see it without a stamp here.
 */
/**
 * Replaces the photo list of a profile with `photos` in that order (rows kept where names stay). New photos
 * take their upload screening (`screens`, by file name): held or clear, the score, and the face descriptor
 * when the owner consented.
 */
export async function setPhotos(
  db: Kysely<Database>,
  profileId: ProfileId,
  photos: StoredPhoto[],
  now: string,
  screens: ReadonlyMap<string, PhotoScreen> = new Map(),
): Promise<void> {
  const existing = new Set(await listPhotoNamesWithHeld(db, profileId));
  const wanted = photos.map((p) => p.fileName);
  const removed = [...existing].filter((name) => !wanted.includes(name));
  if (removed.length)
    await db.deleteFrom('photos').where('profile_id', '=', profileId).where('file_name', 'in', removed).execute();
  for (const [position, photo] of photos.entries()) {
    if (existing.has(photo.fileName)) {
      await db
        .updateTable('photos')
        .set({ position })
        .where('profile_id', '=', profileId)
        .where('file_name', '=', photo.fileName)
        .execute();
    } else {
      const screen = screens.get(photo.fileName);
      const inserted = await db
        .insertInto('photos')
        .values({
          profile_id: profileId,
          file_name: photo.fileName,
          blur_name: photo.blurName,
          position,
          created_at: now,
          moderation: screen?.held ? 'held' : 'clear',
          screen_score: screen?.score ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Kept only if consent still stands now (read before the slow screening; checked in the insert itself).
      if (screen?.descriptor) await insertConsentedFace(db, profileId, inserted.id, screen.descriptor, now).execute();
    }
  }
}

export async function findPremiumUntil(db: Kysely<Database>, userId: UserId): Promise<string | null> {
  const row = await db.selectFrom('users').select('premium_until').where('id', '=', userId).executeTakeFirst();
  return row?.premium_until ?? null;
}

/** The top-bar summary for /api/current_user: the profile and its first photo in one query. */
/** Built once (db/prepared.ts): it answers every current_user, whose own cost is a few reads. */
const profileSummary = prepared((db, userId: UserId) =>
  db
    .selectFrom('profiles')
    .select((eb) => [
      'profiles.id',
      'profiles.name',
      'profiles.age',
      'profiles.gender',
      eb
        .selectFrom('photos')
        .select('photos.file_name')
        .whereRef('photos.profile_id', '=', 'profiles.id')
        .orderBy('photos.position')
        .limit(1)
        .as('photo'),
    ])
    .where('profiles.user_id', '=', userId),
);

export async function findProfileSummary(db: Kysely<Database>, userId: UserId) {
  return profileSummary.first(db, userId);
}

/**
 * The menu's server-side switches and the stored gender preference, all kept on the profile, and whether
 * a Telegram account is linked (the bot's notifications reach nobody without one).
 */
export async function findSettings(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'p.private_mode',
      'p.notifications',
      'p.email_notifications',
      'p.push_notifications',
      'p.preferred_gender',
      'p.show_activity',
      'u.telegram_id',
    ])
    .where('p.user_id', '=', userId)
    .executeTakeFirst();
}

export async function updateSettings(
  db: Kysely<Database>,
  profileId: ProfileId,
  changes: {
    private_mode?: boolean | undefined;
    notifications?: boolean | undefined;
    email_notifications?: boolean | undefined;
    push_notifications?: boolean | undefined;
    preferred_gender?: PreferredGender | undefined;
    show_activity?: boolean | undefined;
  },
): Promise<void> {
  await db
    .updateTable('profiles')
    .set({
      ...(changes.private_mode !== undefined ? { private_mode: changes.private_mode ? 1 : 0 } : {}),
      ...(changes.notifications !== undefined ? { notifications: changes.notifications ? 1 : 0 } : {}),
      ...(changes.email_notifications !== undefined
        ? { email_notifications: changes.email_notifications ? 1 : 0 }
        : {}),
      ...(changes.push_notifications !== undefined ? { push_notifications: changes.push_notifications ? 1 : 0 } : {}),
      ...(changes.preferred_gender !== undefined ? { preferred_gender: changes.preferred_gender } : {}),
      ...(changes.show_activity !== undefined ? { show_activity: changes.show_activity ? 1 : 0 } : {}),
    })
    .where('id', '=', profileId)
    .execute();
}
