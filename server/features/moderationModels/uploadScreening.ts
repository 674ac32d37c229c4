import { descriptorBytes, largestFace } from './faceMatch.ts';
import type { ModerationModels } from './moderationModels.ts';
import { holdScore, screenScoreOf } from './thresholds.ts';

/** What screening learnt of one uploaded photo (already re-encoded by the photo pipeline). */
export interface PhotoScreen {
  /** nsfwjs's combined score (thresholds.ts screenScoreOf); null: not screened (models off or failed). */
  score: number | null;
  /** Shown to its owner only until a moderator decides. Never a rejection: the model over-flags. */
  held: boolean;
  /** The largest face's descriptor, as stored; only when asked for (the owner consented), and a face was found. */
  descriptor: Buffer | null;
}

/**
 * Screens uploads inline, before the upload's transaction: about 0.1-0.3 s a photo in the models' thread, so a
 * held photo is never visible to anyone else, not even for a moment. Without models it holds nothing and
 * keeps no score (the app works as before; docs/trust.md); with models that failed to answer it holds the
 * photo for a moderator (fail closed), never rejects it.
 */
export class UploadScreening {
  constructor(private readonly models: ModerationModels) {}

  async screen(photo: Buffer, withFace: boolean): Promise<PhotoScreen> {
    const [classes, faces] = await Promise.all([
      this.models.nsfw(photo),
      withFace ? this.models.faces(photo) : Promise.resolve(null),
    ]);
    const score = classes ? screenScoreOf(classes) : null;
    const face = faces ? largestFace(faces).face : null;
    // Models on but no answer (stalled, timed out, the thread died): fail closed, a moderator decides.
    const unscreened = score === null && this.models.on;
    return {
      score,
      held: unscreened || (score !== null && score >= holdScore),
      descriptor: face?.descriptor ? descriptorBytes(face.descriptor) : null,
    };
  }

  /** The largest face's descriptor of a stored photo (computed for a person who consented later), or null. */
  async descriptorOf(photo: Buffer): Promise<Buffer | null> {
    const faces = await this.models.faces(photo);
    const face = faces ? largestFace(faces).face : null;
    return face?.descriptor ? descriptorBytes(face.descriptor) : null;
  }
}
