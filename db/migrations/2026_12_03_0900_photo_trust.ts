import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * Trust (photo verification, screened uploads, the moderation console):
 * - profiles.verified: 1 once a selfie matched the person's own photos (kept while the main photo matches).
 * - profiles.face_consent_at: when the person agreed, on the verification screen, that face descriptors of
 *   their photos may be kept (biometric data); null: none are kept, and none are computed.
 * - photos.moderation: 'clear' (shown), 'held' (the upload screen flagged it: shown to its owner only, as
 *   "under review", until a moderator decides); photos.screen_score: the classifier's score, null when
 *   nothing screened it (MODERATION_ML=off or made before screening).
 * - photo_faces: one face descriptor per photo (Float32 little-endian bytes), only with consent; goes with
 *   the photo, hence with the account.
 * - photo_verifications: one selfie check. The selfie file lives only until a decision (selfie_name is set
 *   to null when it is deleted); the decision, the scores and the reason stay.
 * - admin_actions: the audit log of every admin action (console, CLI, bot). No foreign keys on purpose: the
 *   log outlives the accounts it names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = postgres ? 'serial' : 'integer';
  await db.schema
    .alterTable('profiles')
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('profiles').addColumn('face_consent_at', 'text').execute();
  await db.schema
    .alterTable('photos')
    .addColumn('moderation', 'text', (c) => c.notNull().defaultTo('clear'))
    .execute();
  await db.schema
    .alterTable('photos')
    .addColumn('screen_score', postgres ? 'double precision' : 'real')
    .execute();
  await db.schema
    .createIndex('photos_held')
    .on('photos')
    .column('moderation')
    .where('moderation', '=', 'held')
    .execute();

  await db.schema
    .createTable('photo_faces')
    .addColumn('photo_id', 'integer', (c) => c.primaryKey().references('photos.id').onDelete('cascade'))
    .addColumn('descriptor', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('photo_verifications')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('pose_id', 'text', (c) => c.notNull())
    .addColumn('selfie_name', 'text')
    .addColumn('similarity', postgres ? 'double precision' : 'real')
    .addColumn('pose_ok', 'integer')
    .addColumn('faces', 'integer')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text')
    .execute();
  await db.schema
    .createIndex('photo_verifications_profile')
    .on('photo_verifications')
    .columns(['profile_id', 'id'])
    .execute();
  await db.schema
    .createIndex('photo_verifications_pending')
    .on('photo_verifications')
    .column('status')
    .where('status', '=', 'pending')
    .execute();

  await db.schema
    .createTable('admin_actions')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('admin', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_user_id', 'integer')
    .addColumn('target_profile_id', 'integer')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_actions_created').on('admin_actions').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('admin_actions').execute();
  await db.schema.dropTable('photo_verifications').execute();
  await db.schema.dropTable('photo_faces').execute();
  await db.schema.dropIndex('photos_held').execute();
  await db.schema.alterTable('photos').dropColumn('screen_score').execute();
  await db.schema.alterTable('photos').dropColumn('moderation').execute();
  await db.schema.alterTable('profiles').dropColumn('face_consent_at').execute();
  await db.schema.alterTable('profiles').dropColumn('verified').execute();
}
