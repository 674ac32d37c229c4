import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { PhotoStore } from '../photos/photoStore.ts';
import { deleteProfileOfUser, deleteUser, listPhotoFilesOfUser } from './repository.ts';

/**
 * Deletes a user and everything of theirs: rows go by the database's cascades from `users`, photo files
 * are removed after the transaction commits (a failed delete leaves the files of a user who still exists).
 * Answers whether there was such a user.
 */
export async function eraseAccount(db: Kysely<Database>, photos: PhotoStore, userId: UserId): Promise<boolean> {
  const { files, deleted } = await db.transaction().execute(async (trx) => {
    const rows = await listPhotoFilesOfUser(trx, userId);
    // The profile first, then the account: a like or a message in flight locks profile rows before it
    // touches the account row (an event's foreign key), so taking them in the same order cannot deadlock.
    await deleteProfileOfUser(trx, userId);
    return { files: rows, deleted: await deleteUser(trx, userId) };
  });
  await photos.remove(files.map((f) => ({ fileName: f.file_name, blurName: f.blur_name })));
  return deleted;
}
