import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, PhotoVerificationStatus, ProfileId, UserId } from '../../../db/schema.ts';
import { translatorFor, type Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import {
  poseIds,
  type PoseId,
  type VerificationReason,
  type VerificationState,
  type VerificationUpload,
} from '../../contract/photoVerification.ts';
import { badRequest, conflict } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import {
  bestSimilarity,
  descriptorOf,
  largestFace,
  matchSimilarity,
  type ModerationModels,
  noMatchSimilarity,
  poseVerdict,
  type UploadScreening,
} from '../moderationModels/index.ts';
import { type PhotoStore, processPhoto, storedNamesOf } from '../photos/index.ts';
import { day, type RateCounter } from '../rateLimits/index.ts';
import { profileRequired } from '../relationships/index.ts';
import {
  deletePhotoFaces,
  findLatestVerification,
  findVerificationProfile,
  insertPhotoFace,
  insertVerification,
  listPhotoFaces,
  lockProfile,
  setFaceConsent,
  setVerified,
} from './repository.ts';

/** Selfie attempts a person may make in a day (each runs the models for about a second). */
export const attemptsPerDay = 5;

/** How long an offered pose may be answered: long enough to take a selfie, too short to prepare a fake one. */
export const poseTokenSeconds = 15 * 60;

const poseNotOffered = () =>
  badRequest('pose_not_offered', 'This pose was not offered or has expired. Please take the selfie again.');

const alreadyVerified = () => conflict('photos_already_verified', 'Your photos are already verified');
const alreadyPending = () => conflict('verification_pending', 'Your last selfie is waiting for a moderator');

/** What the models made of one selfie, and the decision. */
interface Outcome {
  status: Exclude<PhotoVerificationStatus, 'processing'>;
  reason: VerificationReason | null;
  similarity: number | null;
  poseOk: boolean | null;
  faces: number | null;
}

/** Every stored name of a selfie: the photo and its thumbnail (the pipeline's blurred copy is never kept). */
export const selfieFileNames = (name: string): string[] => storedNamesOf([{ fileName: name, blurName: null }]);

/**
 * Photo verification (issue 40, docs/trust.md): a selfie in a random pose, compared with the faces of the
 * person's own photos. Decided by the models when clear (verified, or rejected with a reason the app shows);
 * anything unsure, or no models, goes to a moderator ('pending'; the console resolves it). Run in the request:
 * the models work in their own thread (moderationModels), so the event loop only waits on a message.
 */
export class PhotoVerificationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly photos: PhotoStore,
    private readonly models: ModerationModels,
    private readonly screening: UploadScreening,
    private readonly clock: Clock,
    private readonly rates: RateCounter,
    private readonly logger: Logger,
    /** Signs the offered pose (a GET changes nothing, so the server keeps no record of it). */
    private readonly secret: string,
  ) {}

  async state(userId: UserId, language: Language): Promise<VerificationState> {
    const profile = await findVerificationProfile(this.db, userId);
    if (!profile) throw profileRequired();
    const latest = await findLatestVerification(this.db, profile.id);
    // A moderator may have taken the badge back since (or the main photo changed): the profile says.
    const status = latest?.status === 'verified' && profile.verified !== 1 ? 'none' : (latest?.status ?? 'none');
    const reason = status === 'pending' || status === 'rejected' ? (latest?.reason as VerificationReason | null) : null;
    return {
      status: profile.verified === 1 ? 'verified' : status,
      pose: this.randomPose(profile.id, language),
      reason: reason ?? null,
      consent: profile.face_consent_at !== null,
    };
  }

  async submit(
    userId: UserId,
    upload: VerificationUpload,
    selfie: Buffer,
    language: Language,
  ): Promise<VerificationState> {
    const profile = await findVerificationProfile(this.db, userId);
    if (!profile) throw profileRequired();
    // Only the pose the server offered this person (signed in GET's answer, not yet expired) is checked.
    if (!this.poseTokenValid(profile.id, upload.pose_id, upload.pose_token)) throw poseNotOffered();
    if (profile.verified === 1) throw alreadyVerified();
    const latest = await findLatestVerification(this.db, profile.id);
    if (latest?.status === 'pending') throw alreadyPending();
    await this.rates.hit(
      `photo_verification:${profile.id}`,
      [{ seconds: day, limit: attemptsPerDay }],
      'too_many_verifications',
      'Too many selfies today. Please try again tomorrow.',
    );
    // The same pipeline as every photo: checked, upright, re-encoded without EXIF or GPS.
    const processed = await processPhoto(selfie);
    const now = this.clock.now().toISOString();
    // The screen's explicit consent (the contract requires consent='true'): only now may descriptors be kept.
    if (profile.face_consent_at === null) await setFaceConsent(this.db, profile.id, now);
    const known = await this.mainPhotoDescriptor(profile.id, now);
    const outcome = await this.decide(processed.photo, upload.pose_id, known);
    // Kept only for a moderator: a decided selfie is never stored at all.
    let selfieName: string | null = null;
    if (outcome.status === 'pending') {
      const stored = await this.photos.save(processed);
      selfieName = stored.fileName;
      // Only the photo is kept for the moderator; its thumbnail stays (same stem), the blurred copy goes now.
      if (stored.blurName) await this.photos.removeNames([stored.blurName]);
    }
    try {
      await this.db.transaction().execute(async (trx) => {
        // Two selfies in parallel both passed the checks above: under the profile's row lock, only one goes in.
        await lockProfile(trx, profile.id);
        const locked = await findVerificationProfile(trx, userId);
        if (locked?.verified === 1) throw alreadyVerified();
        if ((await findLatestVerification(trx, profile.id))?.status === 'pending') throw alreadyPending();
        await insertVerification(trx, {
          profile_id: profile.id,
          status: outcome.status,
          pose_id: upload.pose_id,
          selfie_name: selfieName,
          similarity: outcome.similarity,
          pose_ok: outcome.poseOk === null ? null : outcome.poseOk ? 1 : 0,
          faces: outcome.faces,
          reason: outcome.reason,
          created_at: now,
          decided_at: outcome.status === 'pending' ? null : now,
          decided_by: outcome.status === 'pending' ? null : 'model',
        });
        if (outcome.status === 'verified') await setVerified(trx, profile.id, true);
      });
    } catch (error) {
      if (selfieName) await this.removeSelfie(selfieName);
      throw error;
    }
    this.logger.info(
      { profileId: profile.id, status: outcome.status, reason: outcome.reason, similarity: outcome.similarity },
      'selfie checked',
    );
    return this.state(userId, language);
  }

  /** Consent withdrawn: every face descriptor of the person goes, and none is computed again until they consent. */
  async withdrawConsent(userId: UserId, language: Language): Promise<VerificationState> {
    const profile = await findVerificationProfile(this.db, userId);
    if (!profile) throw profileRequired();
    const deleted = await this.db.transaction().execute(async (trx) => {
      await setFaceConsent(trx, profile.id, null);
      return deletePhotoFaces(trx, profile.id);
    });
    this.logger.info({ profileId: profile.id, deleted }, 'face consent withdrawn');
    return this.state(userId, language);
  }

  /** A random pose, its text in the reader's language, and the token that proves it was offered to this person. */
  private randomPose(profileId: ProfileId, language: Language): VerificationState['pose'] {
    const id = poseIds[randomInt(poseIds.length)] ?? 'turn_left';
    const expires = Math.floor(this.clock.now().getTime() / 1000) + poseTokenSeconds;
    return {
      id,
      text: translatorFor(language)(`verification.pose.${id}`),
      token: `${expires}.${this.poseSignature(profileId, id, expires)}`,
    };
  }

  private poseSignature(profileId: ProfileId, pose: PoseId, expires: number): string {
    return createHmac('sha256', this.secret)
      .update(`verification-pose:${profileId}:${pose}:${expires}`)
      .digest('base64url');
  }

  private poseTokenValid(profileId: ProfileId, pose: PoseId, token: string): boolean {
    const [expiresText, signature] = token.split('.');
    const expires = Number(expiresText);
    if (!Number.isSafeInteger(expires) || !signature) return false;
    if (expires * 1000 < this.clock.now().getTime()) return false;
    const expected = Buffer.from(this.poseSignature(profileId, pose, expires));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * The descriptor of the person's MAIN photo (position 0), the one the badge is shown on: a selfie matching
   * only another photo proves nothing about the first one people see (docs/trust.md). Computed now, once, and
   * kept when it is missing (uploaded before consent); held by screening counts too: it is the person's own.
   */
  private async mainPhotoDescriptor(profileId: ProfileId, now: string): Promise<Float32Array | null> {
    const [main] = await listPhotoFaces(this.db, profileId);
    if (!main) return null;
    if (main.descriptor) return descriptorOf(main.descriptor);
    const bytes = await this.readPhoto(main.file_name);
    const computed = bytes ? await this.screening.descriptorOf(bytes) : null;
    if (!computed) return null;
    // Kept only while consent stands (checked in the insert itself: a withdrawal meanwhile wins).
    await insertPhotoFace(this.db, profileId, main.id, computed, now);
    return descriptorOf(computed);
  }

  private async decide(selfie: Buffer, pose: PoseId, known: Float32Array | null): Promise<Outcome> {
    const analysis = await this.models.faces(selfie);
    const unsure = (reason: VerificationReason, rest: Partial<Outcome> = {}): Outcome => ({
      status: 'pending',
      reason,
      similarity: null,
      poseOk: null,
      faces: analysis?.faces.length ?? null,
      ...rest,
    });
    // No models (off, failed to load, timed out): a person decides.
    if (!analysis) return unsure('review');
    const faces = analysis.faces.length;
    const rejected = (reason: VerificationReason, rest: Partial<Outcome> = {}): Outcome => ({
      status: 'rejected',
      reason,
      similarity: null,
      poseOk: null,
      faces,
      ...rest,
    });
    const { face, largeFaces } = largestFace(analysis);
    if (!face?.descriptor) return rejected('no_face');
    if (largeFaces > 1) return unsure('several_faces');
    if (!known) return rejected('no_photos');
    const similarity = bestSimilarity(face.descriptor, [known]);
    if (similarity < noMatchSimilarity) return rejected('no_match', { similarity });
    const pose_ = poseVerdict(face, pose);
    if (similarity < matchSimilarity || pose_ === 'unsure')
      return unsure('review', { similarity, poseOk: pose_ === 'unsure' ? null : pose_ === 'seen' });
    if (pose_ === 'not_seen') return rejected('pose_not_seen', { similarity, poseOk: false });
    return { status: 'verified', reason: null, similarity, poseOk: true, faces };
  }

  private async readPhoto(name: string): Promise<Buffer | null> {
    const file = await this.photos.open(name);
    if (!file) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  private async removeSelfie(name: string): Promise<void> {
    try {
      await this.photos.removeNames(selfieFileNames(name));
    } catch (error) {
      this.logger.warn({ err: error }, 'selfie file not removed: left to the orphan sweep');
    }
  }
}
