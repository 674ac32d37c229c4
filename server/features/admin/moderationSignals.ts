import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';
import { countConversationsWithText, countOwnMessagesUpToTwo, hasOpenFlag, insertFlag } from './repository.ts';

/** The same opening line in this many conversations within a day looks like a script, not a person. */
export const repeatedOpenerThreshold = 5;

/**
 * Flags a sender for review when the first message they just sent in a conversation is word for word the
 * one they opened four other conversations with in the last day. Runs only on a first message (one indexed
 * look), and one open flag per person is enough for an admin to look.
 */
export async function flagRepeatedOpener(
  db: Kysely<Database>,
  userId: UserId,
  profileId: ProfileId,
  conversationId: number,
  content: string,
  now: Date,
): Promise<boolean> {
  if ((await countOwnMessagesUpToTwo(db, conversationId, profileId)) !== 1) return false;
  const conversations = await countConversationsWithText(
    db,
    profileId,
    content,
    addSeconds(now, -86_400).toISOString(),
  );
  if (conversations < repeatedOpenerThreshold) return false;
  if (await hasOpenFlag(db, userId, 'repeated_first_message')) return false;
  await insertFlag(db, {
    user_id: userId,
    reason: 'repeated_first_message',
    details: JSON.stringify({ text: content.slice(0, 200), conversations }),
    created_at: now.toISOString(),
  });
  return true;
}
