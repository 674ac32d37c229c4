import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addSeconds } from '../../clock.ts';

/** The same opening line in this many conversations within a day looks like a script, not a person. */
export const repeatedOpenerThreshold = 5;

/**
 * Flags a sender for review when the first message they just sent in a conversation is word for word the
 * one they opened four other conversations with in the last day. Runs only on a first message (one indexed
 * look), and one open flag per person is enough for an admin to look.
 */
export async function flagRepeatedOpener(db: Kysely<Database>, userId: number, profileId: number, conversationId: number, content: string, now: Date): Promise<boolean> {
  const mine = await db.selectFrom('messages').select('id').where('conversation_id', '=', conversationId).where('sender_id', '=', profileId).limit(2).execute();
  if (mine.length !== 1) return false;
  const { conversations } = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.count<string | number>('conversation_id').distinct().as('conversations'))
    .where('sender_id', '=', profileId)
    .where('created_at', '>=', addSeconds(now, -86_400).toISOString())
    .where('content', '=', content)
    .executeTakeFirstOrThrow();
  if (Number(conversations) < repeatedOpenerThreshold) return false;
  const open = await db.selectFrom('moderation_flags').select('id').where('user_id', '=', userId).where('reason', '=', 'repeated_first_message').where('resolved_at', 'is', null).executeTakeFirst();
  if (open) return false;
  await db
    .insertInto('moderation_flags')
    .values({ user_id: userId, reason: 'repeated_first_message', details: JSON.stringify({ text: content.slice(0, 200), conversations: Number(conversations) }), created_at: now.toISOString(), resolved_at: null })
    .execute();
  return true;
}
