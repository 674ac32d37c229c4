import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import { type EventBus, writeProfileLeaving } from '../events/index.ts';
import type { PhotoStore } from '../photos/index.ts';
import {
  deleteProfileOfUser,
  deleteUser,
  findProfileOfUser,
  listPhotoFilesOfUser,
  listSelfieFilesOfUser,
} from './repository.ts';

/**
 * Deletes a user and everything of theirs: rows go by the database's cascades from `users`, photo files
 * are removed after the transaction commits (a failed delete leaves the files of a user who still exists).
 * A store that fails then does not undo the deletion: it is logged, and the orphan sweep removes the files.
 * The people in a match with them hear it ended (the streams of `bus`). Answers whether there was such a user.
 */
export async function eraseAccount(
  {
    db,
    photos,
    clock,
    bus,
    logger,
  }: {
    db: Kysely<Database>;
    photos: PhotoStore;
    clock: Clock;
    bus: Pick<EventBus, 'publish'>;
    logger: Pick<Logger, 'warn'>;
  },
  userId: UserId,
): Promise<boolean> {
  const { files, deleted, told } = await db.transaction().execute(async (trx) => {
    const rows = [
      ...(await listPhotoFilesOfUser(trx, userId)),
      // A pending selfie check's face goes with the account too (its row goes by the cascade).
      ...(await listSelfieFilesOfUser(trx, userId)).flatMap((s) =>
        s.file_name ? [{ file_name: s.file_name, blur_name: null }] : [],
      ),
    ];
    const profile = await findProfileOfUser(trx, userId);
    const told = profile ? await writeProfileLeaving(trx, profile.id, clock.now().toISOString()) : [];
    // The profile first, then the account: a like or a message in flight locks profile rows before it
    // touches the account row (an event's foreign key), so taking them in the same order cannot deadlock.
    await deleteProfileOfUser(trx, userId);
    return { files: rows, deleted: await deleteUser(trx, userId), told };
  });
  await bus.publish(told);
  await photos.remove(files.map((f) => ({ fileName: f.file_name, blurName: f.blur_name }))).catch((error: unknown) => {
    logger.warn({ err: error, files: files.length }, 'photo files of a deleted account not removed');
  });
  return deleted;
}
