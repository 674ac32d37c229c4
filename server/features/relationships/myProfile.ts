import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { findMyProfile } from './repository.ts';

export type MyProfile = NonNullable<Awaited<ReturnType<typeof findMyProfile>>>;

/** Everything people do to each other needs a profile of one's own first: the app then opens the wizard. */
export const profileRequired = () => new AppError(409, 'profile_required', 'Create your profile first');

export async function requireMyProfile(db: Kysely<Database>, userId: UserId): Promise<MyProfile> {
  const me = await findMyProfile(db, userId);
  if (!me) throw profileRequired();
  return me;
}
