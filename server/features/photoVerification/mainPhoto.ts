import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { bestSimilarity, descriptorOf, noMatchSimilarity } from '../moderationModels/index.ts';
import { findPhotoDescriptors } from './repository.ts';

/** The stored face descriptors of these photos (read before a change deletes them with their photos). */
export async function photoDescriptors(db: Kysely<Database>, photoIds: readonly number[]): Promise<Float32Array[]> {
  return (await findPhotoDescriptors(db, photoIds)).map((r) => descriptorOf(r.descriptor));
}

/**
 * Whether a verified person's new main photo still shows them: its face matches (at least the "no match"
 * bound, 0.55: the same person in another photo scores 0.79-0.92) the face of the previous main photo
 * (`before`: that one descriptor, or none). Kept simple on purpose: without a descriptor for the new main photo (no consent, consent
 * withdrawn, no face found, models off) it cannot be shown to match, so the badge goes and the person
 * verifies again; the profile's other photos changing never touches it.
 */
export async function mainPhotoStillMatches(
  db: Kysely<Database>,
  mainPhotoId: number,
  before: readonly Float32Array[],
): Promise<boolean> {
  const [main] = await photoDescriptors(db, [mainPhotoId]);
  return main !== undefined && bestSimilarity(main, before) >= noMatchSimilarity;
}
