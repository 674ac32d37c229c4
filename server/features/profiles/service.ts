import type { Kysely } from 'kysely';
import type { Database, Gender, PreferredGender, ProfileId, UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import {
  atLeastOnePhotoMessage,
  maxPhotos,
  maxPhotosMessage,
  type CreateProfileFields,
  type EditProfileFields,
  type OwnProfileResponse,
  type PhotoEdits,
} from '../../contract/profiles.ts';
import type { SettingsChanges, SettingsResponse } from '../../contract/discovery.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { lockUser } from '../accounts/index.ts';
import { type EventBus, writeProfileLeaving } from '../events/index.ts';
import { storedCity } from '../location/index.ts';
import { storedPrompts } from '../prompts/index.ts';
import { profileRequired } from '../relationships/index.ts';
import type { PhotoScreen, UploadScreening } from '../moderationModels/index.ts';
import { mainPhotoStillMatches, photoDescriptors, setVerified } from '../photoVerification/index.ts';
import { type PhotoStore, processPhoto, type StoredPhoto } from '../photos/index.ts';
import { snapCoordinates } from './locationGrid.ts';
import { presentOwnProfile } from './presenter.ts';
import {
  deleteProfileRow,
  findPremiumUntil,
  findProfileByUser,
  insertProfile,
  findSettings,
  isVerified,
  listOwnPhotos,
  listPhotoIds,
  listPhotos,
  listSelfieFiles,
  setPhotos,
  updateProfile,
  updateSettings,
} from './repository.ts';

export const profileNotFound = () => notFound('profile_not_found', 'Profile not found');
export const noPhoto = () => badRequest('photo_required', atLeastOnePhotoMessage);
export const tooManyPhotos = () => badRequest('too_many_photos', maxPhotosMessage);

/** Spec: the preferred gender starts as the opposite one. */
function oppositeOf(gender: Gender): PreferredGender {
  return gender === 'Male' ? 'Female' : gender === 'Female' ? 'Male' : 'Any';
}

function snapped(fields: { latitude?: number | undefined; longitude?: number | undefined }) {
  return fields.latitude !== undefined && fields.longitude !== undefined
    ? snapCoordinates(fields.latitude, fields.longitude)
    : undefined;
}

export class ProfileService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly photos: PhotoStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly bus: EventBus,
    private readonly screening: UploadScreening,
  ) {}

  /** `language`: the owner's, in which their city is named. */
  async get(userId: UserId, language: Language): Promise<OwnProfileResponse> {
    const profile = await findProfileByUser(this.db, userId);
    if (!profile) throw profileNotFound();
    const [photos, premiumUntil] = await Promise.all([
      listOwnPhotos(this.db, profile.id),
      findPremiumUntil(this.db, userId),
    ]);
    return presentOwnProfile(profile, photos, premiumUntil, this.clock.now(), language);
  }

  async create(
    userId: UserId,
    verified: boolean,
    fields: CreateProfileFields,
    uploads: Buffer[],
    language: Language,
  ): Promise<OwnProfileResponse> {
    if (!verified) throw forbidden('not_verified', 'Please verify your account first');
    // Before the photos are processed: an unknown place id is refused without any work.
    const city = storedCity(fields) ?? { city: '', place_id: null };
    if (uploads.length === 0) throw noPhoto();
    if (uploads.length > maxPhotos) throw tooManyPhotos();
    if (await findProfileByUser(this.db, userId)) throw conflict('profile_exists', 'You already have a profile');
    // No consent can exist before the profile: screened, but no face descriptor kept.
    const { saved, screens } = await this.processAndSave(uploads, false);
    try {
      const now = this.clock.now().toISOString();
      const coordinates = snapped(fields);
      await this.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        if (await findProfileByUser(trx, userId)) throw conflict('profile_exists', 'You already have a profile');
        const profileId = await insertProfile(trx, {
          user_id: userId,
          name: fields.name,
          age: fields.age,
          gender: fields.gender,
          preferred_gender: oppositeOf(fields.gender),
          bio: fields.bio ?? '',
          city: city.city,
          place_id: city.place_id,
          latitude: coordinates?.latitude ?? null,
          longitude: coordinates?.longitude ?? null,
          prompts: storedPrompts(fields.prompts ?? []),
          created_at: now,
          updated_at: now,
        });
        await setPhotos(trx, profileId, saved, now, screens);
      });
    } catch (error) {
      await this.removeFiles(saved);
      throw error;
    }
    return this.get(userId, language);
  }

  async edit(
    userId: UserId,
    fields: EditProfileFields,
    edits: PhotoEdits,
    uploads: Buffer[],
    language: Language,
  ): Promise<OwnProfileResponse> {
    const profile = await findProfileByUser(this.db, userId);
    if (!profile) throw profileNotFound();
    const city = storedCity(fields);
    if (typeof edits.newPhotos === 'number' && edits.newPhotos !== uploads.length) {
      throw badRequest('invalid_input', 'newPhotos does not match the number of uploaded files');
    }
    const current = await listPhotos(this.db, profile.id);
    // Cheap checks first, so a request that cannot succeed costs no image processing.
    this.planPhotos(current, edits, uploads.length);
    // Descriptors of new photos only with the owner's consent (biometric data; docs/trust.md).
    const { saved, screens } = await this.processAndSave(uploads, profile.face_consent_at !== null);
    let removed: StoredPhoto[] = [];
    try {
      const now = this.clock.now().toISOString();
      const coordinates = snapped(fields);
      await this.db.transaction().execute(async (trx) => {
        await lockUser(trx, userId);
        // Read again under the lock: a parallel edit may have changed the photos meanwhile.
        const locked = await listPhotos(trx, profile.id);
        const kept = this.planPhotos(locked, edits, saved.length);
        removed = locked.filter((photo) => !kept.includes(photo));
        const [mainBefore] = await listPhotoIds(trx, profile.id);
        // Only the previous MAIN photo's face (the one the badge was earned on), read before the change: a
        // removed photo's descriptor goes with it.
        const faces = mainBefore ? await photoDescriptors(trx, [mainBefore.id]) : [];
        await setPhotos(trx, profile.id, [...kept, ...saved], now, screens);
        await this.keepBadgeIfStillThem(trx, profile.id, mainBefore?.id, faces);
        await updateProfile(trx, profile.id, {
          ...(fields.name !== undefined ? { name: fields.name } : {}),
          ...(fields.age !== undefined ? { age: fields.age } : {}),
          ...(fields.gender !== undefined ? { gender: fields.gender } : {}),
          ...(city ?? {}),
          ...(fields.bio !== undefined ? { bio: fields.bio } : {}),
          ...(coordinates ? coordinates : {}),
          ...(fields.prompts !== undefined ? { prompts: storedPrompts(fields.prompts) } : {}),
          updated_at: now,
        });
      });
    } catch (error) {
      await this.removeFiles(saved);
      throw error;
    }
    // Files go only after the commit: a rolled-back edit must still find its photos on disk.
    await this.removeFiles(removed);
    return this.get(userId, language);
  }

  /**
   * Removes the profile and everything hanging off it (cascades), then its files once that is committed. Its
   * matches hear they ended, and people it liked that their counts changed.
   */
  async delete(userId: UserId): Promise<void> {
    const { files, told } = await this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      const profile = await findProfileByUser(trx, userId);
      if (!profile) throw profileNotFound();
      const photos = [...(await listPhotos(trx, profile.id)), ...(await listSelfieFiles(trx, profile.id))];
      const told = await writeProfileLeaving(trx, profile.id, this.clock.now().toISOString());
      await deleteProfileRow(trx, profile.id);
      return { files: photos, told };
    });
    await this.bus.publish(told);
    await this.removeFiles(files);
  }

  /** The kept photos in their final order, after checking the edit against the current list. */
  private planPhotos(current: StoredPhoto[], edits: PhotoEdits, added: number): StoredPhoto[] {
    const names = current.map((p) => p.fileName);
    const unknown = edits.deletedPhotos.find((name) => !names.includes(name));
    if (unknown) throw badRequest('unknown_photo', 'This photo is not in your profile');
    let kept = current.filter((photo) => !edits.deletedPhotos.includes(photo.fileName));
    const order = edits.order;
    if (order) {
      const same = order.length === kept.length && kept.every((photo) => order.includes(photo.fileName));
      if (!same) throw badRequest('invalid_order', 'order must list exactly the photos you keep');
      kept = order.map((name) => kept.find((photo) => photo.fileName === name) ?? { fileName: name, blurName: null });
    }
    if (kept.length + added === 0) throw noPhoto();
    if (kept.length + added > maxPhotos) throw tooManyPhotos();
    return kept;
  }

  /**
   * A verified person whose main photo (position 0) changed keeps the badge only if the new main photo's face
   * matches the PREVIOUS main photo's (photoVerification/mainPhoto.ts): never any other earlier photo, which
   * could be the new main photo itself moved up, or a stranger's added later. No descriptor, no badge. It goes
   * in the same transaction as the change.
   */
  private async keepBadgeIfStillThem(
    trx: Kysely<Database>,
    profileId: ProfileId,
    mainBefore: number | undefined,
    mainBeforeFace: Float32Array[],
  ): Promise<void> {
    const [main] = await listPhotoIds(trx, profileId);
    if (!main || main.id === mainBefore) return;
    if (!(await isVerified(trx, profileId))) return;
    if (!(await mainPhotoStillMatches(trx, main.id, mainBeforeFace))) await setVerified(trx, profileId, false);
  }

  /**
   * Checks, re-encodes and screens every upload before any is stored, so a bad third photo stores nothing at
   * all. Screening (nsfwjs, and Human for the face descriptor when `withFace`) runs in the models' thread.
   */
  private async processAndSave(
    uploads: Buffer[],
    withFace: boolean,
  ): Promise<{ saved: StoredPhoto[]; screens: Map<string, PhotoScreen> }> {
    const processed = [];
    for (const upload of uploads) processed.push(await processPhoto(upload));
    const checks = [];
    for (const photo of processed) checks.push(await this.screening.screen(photo.photo, withFace));
    const saved: StoredPhoto[] = [];
    const screens = new Map<string, PhotoScreen>();
    try {
      for (const [i, photo] of processed.entries()) {
        const stored = await this.photos.save(photo);
        saved.push(stored);
        const check = checks[i];
        if (check) screens.set(stored.fileName, check);
      }
    } catch (error) {
      await this.removeFiles(saved);
      throw error;
    }
    return { saved, screens };
  }

  private async removeFiles(photos: StoredPhoto[]): Promise<void> {
    try {
      await this.photos.remove(photos);
    } catch (error) {
      // The rows are gone (or were never written); an orphaned file is swept by the cleanup job, never
      // served to anyone. Not thrown: a failed clean-up must not hide the error that caused it.
      this.logger.warn({ err: error, files: photos.length }, 'photo files not removed');
    }
  }

  /** The menu's server-side switches (private mode, bot notifications, e-mails) and the stored gender preference. */
  async settings(userId: UserId): Promise<SettingsResponse> {
    const row = await findSettings(this.db, userId);
    if (!row) throw profileRequired();
    return {
      private_mode: row.private_mode === 1,
      notifications: row.notifications === 1,
      email_notifications: row.email_notifications === 1,
      push_notifications: row.push_notifications === 1,
      preferred_gender: row.preferred_gender,
      show_activity: row.show_activity === 1,
      telegram_linked: row.telegram_id !== null,
    };
  }

  async updateSettings(userId: UserId, changes: SettingsChanges): Promise<SettingsResponse> {
    const row = await findSettings(this.db, userId);
    if (!row) throw profileRequired();
    // Parsed from JSON: a field the body leaves out is absent, never undefined.
    if (Object.keys(changes).length === 0) {
      throw badRequest('nothing_to_change', 'Nothing to change');
    }
    await updateSettings(this.db, row.id, changes);
    return this.settings(userId);
  }
}
