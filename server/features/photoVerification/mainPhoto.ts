import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { bestSimilarity, descriptorOf, noMatchSimilarity } from '../moderationModels/index.ts';
import { findPhotoDescriptors } from './repository.ts';

/**
 * Whether a verified person's new main photo still shows them: its face matches (at least the "no match"
 * bound, 0.55: the same person in another photo scores 0.79-0.92) a face of any photo the profile had before
 * the change, other than itself. Kept simple on purpose: without a descriptor for the new main photo (no
 * consent, consent withdrawn, no face found, models off) it cannot be shown to match, so the badge goes and
 * the person verifies again; a profile's other photos changing never touches it.
 */
export async function mainPhotoStillMatches(
  db: Kysely<Database>,
  mainPhotoId: number,
  previousPhotoIds: readonly number[],
): Promise<boolean> {
  const ids = [mainPhotoId, ...previousPhotoIds.filter((id) => id !== mainPhotoId)];
  const rows = await findPhotoDescriptors(db, ids);
  const main = rows.find((r) => r.photo_id === mainPhotoId);
  if (!main) return false;
  const others = rows.filter((r) => r.photo_id !== mainPhotoId).map((r) => descriptorOf(r.descriptor));
  return bestSimilarity(descriptorOf(main.descriptor), others) >= noMatchSimilarity;
}
