import { type Kysely, PostgresAdapter } from 'kysely';
import type { Database, PhotoVerificationStatus, ProfileId, UserId } from '../../../db/schema.ts';

/** The newest selfie check of a profile (GET /api/verification shows its status). */
export async function findLatestVerification(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('photo_verifications')
    .select(['id', 'status', 'reason', 'selfie_name'])
    .where('profile_id', '=', profileId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findVerificationProfile(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('profiles')
    .select(['id', 'verified', 'face_consent_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export interface NewVerification {
  profile_id: ProfileId;
  status: PhotoVerificationStatus;
  pose_id: string;
  selfie_name: string | null;
  similarity: number | null;
  pose_ok: number | null;
  faces: number | null;
  reason: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

export async function insertVerification(db: Kysely<Database>, row: NewVerification): Promise<number> {
  const inserted = await db.insertInto('photo_verifications').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** The badge, the one place it is set (the search trigger of migration verified_search_stamp stamps the change). */
export async function setVerified(db: Kysely<Database>, profileId: ProfileId, verified: boolean): Promise<void> {
  await db
    .updateTable('profiles')
    .set({ verified: verified ? 1 : 0 })
    .where('id', '=', profileId)
    .where('verified', '=', verified ? 0 : 1)
    .execute();
}

/**
 * Takes the profile's row lock until the transaction ends (a no-op write: PostgreSQL locks the row, SQLite
 * the database), so parallel selfies of one person are written one after the other.
 */
export async function lockProfile(db: Kysely<Database>, profileId: ProfileId): Promise<void> {
  await db
    .updateTable('profiles')
    .set((eb) => ({ face_consent_at: eb.ref('face_consent_at') }))
    .where('id', '=', profileId)
    .execute();
}

export async function setFaceConsent(db: Kysely<Database>, profileId: ProfileId, at: string | null): Promise<void> {
  await db.updateTable('profiles').set({ face_consent_at: at }).where('id', '=', profileId).execute();
}

/** The profile's photos in display order, with their stored descriptor when there is one. */
export async function listPhotoFaces(db: Kysely<Database>, profileId: ProfileId) {
  return db
    .selectFrom('photos')
    .leftJoin('photo_faces', 'photo_faces.photo_id', 'photos.id')
    .select(['photos.id', 'photos.file_name', 'photos.position', 'photo_faces.descriptor'])
    .where('photos.profile_id', '=', profileId)
    .orderBy('photos.position')
    .orderBy('photos.id')
    .execute();
}

/**
 * One descriptor per photo, kept only if the profile's consent still stands when it is written: checked in
 * the insert itself, so a withdrawal during the slow model work wins (docs/trust.md). A second write for the
 * same photo (two parallel checks) changes nothing.
 */
export async function insertPhotoFace(
  db: Kysely<Database>,
  profileId: ProfileId,
  photoId: number,
  descriptor: Uint8Array,
  now: string,
): Promise<void> {
  await insertConsentedFace(db, profileId, photoId, descriptor, now)
    .onConflict((oc) => oc.column('photo_id').doNothing())
    .execute();
}

/**
 * `insert into photo_faces … select … from profiles where consent is not null` (PostgreSQL infers the
 * parameters' types from the target columns). On PostgreSQL the profile row is locked (FOR UPDATE), so a
 * withdrawal either commits first (nothing is inserted) or waits and then deletes what this wrote; SQLite
 * runs one writer at a time anyway.
 */
export function insertConsentedFace(
  db: Kysely<Database>,
  profileId: ProfileId,
  photoId: number,
  descriptor: Uint8Array,
  now: string,
) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return db
    .insertInto('photo_faces')
    .columns(['photo_id', 'descriptor', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('profiles')
        .select([eb.val(photoId).as('photo_id'), eb.val(descriptor).as('descriptor'), eb.val(now).as('created_at')])
        .where('profiles.id', '=', profileId)
        .where('profiles.face_consent_at', 'is not', null)
        .$if(postgres, (qb) => qb.forUpdate()),
    );
}

/** Consent withdrawn: every face descriptor of the profile's photos goes. */
export async function deletePhotoFaces(db: Kysely<Database>, profileId: ProfileId): Promise<number> {
  const result = await db
    .deleteFrom('photo_faces')
    .where('photo_id', 'in', (eb) =>
      eb.selectFrom('photos').select('photos.id').where('photos.profile_id', '=', profileId),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The stored descriptors of these photos (those with none are absent). */
export async function findPhotoDescriptors(db: Kysely<Database>, photoIds: readonly number[]) {
  if (photoIds.length === 0) return [];
  return db.selectFrom('photo_faces').select(['photo_id', 'descriptor']).where('photo_id', 'in', photoIds).execute();
}
