import type { PoseId } from '../../contract/photoVerification.ts';
import type { FaceAnalysis, FoundFace } from './moderationModels.ts';
import { poseAngles, secondFaceAreaShare } from './thresholds.ts';

/**
 * Human's similarity of two descriptors (its `match.similarity` with its defaults: Euclidean distance,
 * multiplier 25, normalised to 0.2..0.8), written out so the main thread needs no model package to compare.
 */
export function faceSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    sum += d * d;
  }
  const distance = Math.round(100 * 25 * sum) / 100;
  if (distance === 0) return 1;
  const normalised = (1 - Math.sqrt(distance) / 100 - 0.2) / (0.8 - 0.2);
  return Math.round(100 * Math.max(Math.min(normalised, 1), 0)) / 100;
}

/** The best similarity of one descriptor to any of several; 0 without any. */
export function bestSimilarity(descriptor: ArrayLike<number>, others: readonly ArrayLike<number>[]): number {
  return others.reduce((best, other) => Math.max(best, faceSimilarity(descriptor, other)), 0);
}

const areaOf = (face: FoundFace) => face.box[2] * face.box[3];

/** The largest face, and how many faces are large beside it (a small one in the background does not count). */
export function largestFace(analysis: FaceAnalysis): { face: FoundFace | null; largeFaces: number } {
  const faces = [...analysis.faces].sort((a, b) => areaOf(b) - areaOf(a));
  const face = faces[0] ?? null;
  if (!face) return { face: null, largeFaces: 0 };
  const largeFaces = faces.filter((f) => areaOf(f) >= secondFaceAreaShare * areaOf(face)).length;
  return { face, largeFaces };
}

/** Descriptors as stored (photo_faces.descriptor): Float32, little-endian. */
export function descriptorBytes(descriptor: readonly number[]): Buffer {
  const bytes = Buffer.alloc(descriptor.length * 4);
  descriptor.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes;
}

export function descriptorOf(bytes: Uint8Array): Float32Array {
  const view = Buffer.from(bytes);
  const out = new Float32Array(view.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.readFloatLE(i * 4);
  return out;
}

export type PoseVerdict = 'seen' | 'unsure' | 'not_seen';

/**
 * Whether the face shows the asked pose. Turning (yaw) and tilting (roll) count in either direction: a front
 * camera usually mirrors the selfie, which flips both signs, and the app cannot tell us whether it did. Asking
 * for a turned or tilted head is what stops a replayed frontal photo. Looking up or down (pitch) is not
 * mirrored, so a clear pitch the wrong way is unsure (a moderator looks), never "seen".
 */
export function poseVerdict(face: FoundFace, pose: PoseId): PoseVerdict {
  const grade = (value: number | null, limits: { seen: number; unsure: number }): PoseVerdict => {
    if (value === null) return 'unsure';
    if (value >= limits.seen) return 'seen';
    return value >= limits.unsure ? 'unsure' : 'not_seen';
  };
  switch (pose) {
    case 'turn_left':
    case 'turn_right':
      return grade(face.yaw === null ? null : Math.abs(face.yaw), poseAngles.yaw);
    case 'tilt_left':
    case 'tilt_right':
      return grade(face.roll === null ? null : Math.abs(face.roll), poseAngles.roll);
    case 'look_up':
    case 'look_down': {
      if (face.pitch === null) return 'unsure';
      // Human's pitch is positive with the head bowed (down) and negative with the chin raised (up).
      const asked = pose === 'look_down' ? face.pitch : -face.pitch;
      const verdict = grade(asked, poseAngles.pitch);
      return verdict === 'not_seen' && Math.abs(face.pitch) >= poseAngles.pitch.unsure ? 'unsure' : verdict;
    }
  }
}
