/**
 * Every moderation threshold, in one place (docs/trust.md). Provisional: measured on the sample faces that ship
 * in @vladmandic/human (../shared/notes/ml-feasibility.md): same person 0.79-0.92, different people at most 0.62.
 */

/** Human's similarity of a selfie's face to the best of the person's photos: at least this is the same person. */
export const matchSimilarity = 0.75;
/** Below this it is clearly someone else: rejected. Between the two: a moderator decides. */
export const noMatchSimilarity = 0.55;

/**
 * A second face counts ("several faces": a moderator looks) when its box is at least this share of the
 * largest one's area: a small face in the background of a selfie is ignored.
 */
export const secondFaceAreaShare = 0.35;

/**
 * Head pose, radians. Seen: at least `seen` in the asked direction; not seen: under `unsure` (about frontal:
 * casual photos already reach ±0.3 yaw); between, or the wrong sign of pitch, a moderator looks. Yaw and roll
 * flip sign in a mirrored selfie (most front cameras mirror), so either sign counts for turning and tilting.
 */
export const poseAngles = {
  yaw: { seen: 0.4, unsure: 0.25 },
  pitch: { seen: 0.4, unsure: 0.25 },
  roll: { seen: 0.3, unsure: 0.15 },
} as const;

/**
 * nsfwjs: an upload whose Porn + Hentai + half of Sexy reaches this is held for a moderator. Never rejected:
 * the model gave dressed party photos up to 0.50 "Porn" (the notes), so a hold costs a person a short wait,
 * never their photo.
 */
export const holdScore = 0.6;

/** The score screening stores for an upload (photos.screen_score), from nsfwjs's classes. */
export function screenScoreOf(classes: Record<string, number>): number {
  const score = (classes.Porn ?? 0) + (classes.Hentai ?? 0) + 0.5 * (classes.Sexy ?? 0);
  return Math.min(1, Math.round(score * 1000) / 1000);
}
