import { z } from 'zod/mini';

/**
 * Photo verification (issue 40): a selfie in a requested pose, compared with the person's own photos.
 * `GET /api/verification` and `POST /api/verification` (multipart: `selfie`, `pose_id`, `pose_token`, `consent`) both answer
 * `verificationState`. Selfies are never shown to other people and are deleted once decided.
 */
export const verificationStatuses = ['none', 'processing', 'pending', 'verified', 'rejected'] as const;
export type VerificationStatus = (typeof verificationStatuses)[number];

/** The poses a selfie may be asked for; the text is in the reader's language (locales `verification.pose.<id>`). */
export const poseIds = ['turn_left', 'turn_right', 'look_up', 'look_down', 'tilt_left', 'tilt_right'] as const;
export type PoseId = (typeof poseIds)[number];

/**
 * Why a selfie was rejected or sent to a moderator; the app shows `verification.reason.<code>`.
 * no_face: none found; several_faces: more than one large face; no_match: clearly not the person in the
 * photos; pose_not_seen: the pose was not seen; no_photos: the profile has no photo with a face to compare
 * with; review: a moderator will look (unsure score, or the models are off); moderator: a moderator decided.
 */
export const verificationReasons = [
  'no_face',
  'several_faces',
  'no_match',
  'pose_not_seen',
  'no_photos',
  'review',
  'moderator',
] as const;
export type VerificationReason = (typeof verificationReasons)[number];

export const verificationState = z.object({
  status: z.enum(verificationStatuses),
  /**
   * The pose to take for the next selfie: random on each GET, so the app keeps the one it showed until the
   * attempt. `token` proves the server offered it to this person (signed, 15 minutes): POST sends it back.
   */
  pose: z.object({ id: z.enum(poseIds), text: z.string(), token: z.string() }),
  /** Set for `rejected` and `pending`; null otherwise. */
  reason: z.nullable(z.enum(verificationReasons)),
  /** The person agreed that face descriptors of their photos may be kept; without it none are kept. */
  consent: z.boolean(),
});
export type VerificationState = z.infer<typeof verificationState>;

/** The text fields of `POST /api/verification` (the file is `selfie`, a JPEG, PNG or WebP image). */
export const verificationUpload = z.strictObject({
  pose_id: z.enum(poseIds, 'pose_id must be one of the offered poses'),
  /** `pose.token` of the GET answer that offered this pose. */
  pose_token: z.string().check(z.minLength(1), z.maxLength(200)),
  /** Must be 'true': the screen's explicit consent to biometric processing. */
  consent: z.literal('true', 'consent is required to verify by selfie'),
});
export type VerificationUpload = z.infer<typeof verificationUpload>;

/** `DELETE /api/verification/consent`: withdraw consent; every kept face descriptor is deleted (verified stays). */
