import { PostgresAdapter, sql, type ExpressionBuilder, type Kysely, type QueryCreator, type SqlBool } from 'kysely';
import { prepared, preparedByShape } from '../../../db/prepared.ts';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import { countedRead, type RateRow, readWithRateCounts } from '../rateLimits/index.ts';
import { notBlockedWith } from '../relationships/index.ts';

/** Neither member of the match `m` has blocked the other. */
const matchNotBlocked = (eb: ExpressionBuilder<Database & { m: Database['matches'] }, 'm'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('blocks as b')
        .select('b.blocker_id')
        .where((w) =>
          w.or([
            w.and([w('b.blocker_id', '=', w.ref('m.profile_low')), w('b.blocked_id', '=', w.ref('m.profile_high'))]),
            w.and([w('b.blocker_id', '=', w.ref('m.profile_high')), w('b.blocked_id', '=', w.ref('m.profile_low'))]),
          ]),
        ),
    ),
  );

/**
 * A conversation the profile belongs to and may still use: its match is live and neither side has
 * blocked the other. Anything else is treated as if it did not exist.
 */
export async function findUsableConversation(db: Kysely<Database>, conversationId: number, profileId: ProfileId) {
  return db
    .selectFrom('conversations as c')
    .innerJoin('matches as m', 'm.id', 'c.match_id')
    .select(['c.id', 'm.profile_low', 'm.profile_high'])
    .where('c.id', '=', conversationId)
    .where('m.unmatched_at', 'is', null)
    .where((eb) => eb.or([eb('m.profile_low', '=', profileId), eb('m.profile_high', '=', profileId)]))
    .where(matchNotBlocked)
    .executeTakeFirst();
}

/** The main photo of the profile `p`: its first one that moderation let through. */
const mainPhoto = (eb: ExpressionBuilder<Database & { p: Database['profiles'] }, 'p'>) =>
  eb
    .selectFrom('photos as ph')
    .select('ph.file_name')
    .whereRef('ph.profile_id', '=', 'p.id')
    .where('ph.moderation', '=', 'clear')
    .orderBy('ph.position')
    .limit(1);

/**
 * A conversation's header for the caller: their profile, the conversation if they may use it
 * (findUsableConversation's rule), the other member (their name, main photo and account) and whether anything
 * to the caller is unread. No row: the caller has no profile or may not use the conversation.
 */
const chatHeaderQuery = (db: Kysely<Database>, conversation: number, user: UserId) =>
  db
    .selectFrom('conversations as c')
    .innerJoin('matches as m', 'm.id', 'c.match_id')
    .innerJoin('profiles as me', (join) =>
      join.on((eb) => eb.or([eb('me.id', '=', eb.ref('m.profile_low')), eb('me.id', '=', eb.ref('m.profile_high'))])),
    )
    .innerJoin('profiles as p', (join) =>
      join.on(sql<boolean>`p.id = (case when m.profile_low = me.id then m.profile_high else m.profile_low end)`),
    )
    .select((eb) => [
      'me.id as me_id',
      'p.id as other_id',
      'p.name as other_name',
      'p.gender as other_gender',
      'p.user_id as other_user_id',
      mainPhoto(eb).as('other_photo'),
      eb
        .exists(
          eb
            .selectFrom('messages as u')
            .select('u.id')
            .whereRef('u.conversation_id', '=', 'c.id')
            .whereRef('u.sender_id', '!=', 'me.id')
            .where('u.read_at', 'is', null),
        )
        .as('any_unread'),
    ])
    .where('c.id', '=', conversation)
    .where('me.user_id', '=', user)
    .where('m.unmatched_at', 'is', null)
    .where(matchNotBlocked)
    // One row at most anyway; the limit keeps it a subquery of its own, so its subselects run once, not per message.
    .limit(1);

/** A page of messages, newest first from the cursor (pageOfMessages). */
const messagesQuery = (db: Kysely<Database>, before: boolean, slot: (name: string) => never) => {
  let page = db
    .selectFrom('messages')
    .select(['id', 'sender_id', 'content', 'created_at', 'read_at'])
    .where('conversation_id', '=', slot('conversation'))
    .orderBy('id', 'desc')
    .limit(slot('limit'));
  if (before) page = page.where('id', '<', slot('before'));
  return page;
};

/**
 * PostgreSQL: the header on every row beside the page's messages, in one statement (one round trip), newest
 * first. One row without a message: an empty page. The page and the unread flag are read at one moment, so a
 * message shown is one a following markRead finds.
 */
const chatPage = preparedByShape(
  (db, before: boolean, slot) => {
    const header = chatHeaderQuery(db, slot('conversation'), slot('user'));
    return db
      .selectFrom(header.as('h'))
      .leftJoin(messagesQuery(db, before, slot).as('pg'), (join) => join.onTrue())
      .select([
        'h.me_id',
        'h.other_id',
        'h.other_name',
        'h.other_gender',
        'h.other_user_id',
        'h.other_photo',
        'h.any_unread',
        'pg.id',
        'pg.sender_id',
        'pg.content',
        'pg.created_at',
        'pg.read_at',
      ])
      .orderBy('pg.id', 'desc');
  },
  (before) => (before ? 'before' : 'latest'),
);

/**
 * SQLite: the same as two statements, the header and the page, run one after the other in the same turn of
 * the event loop (db/prepared.ts reads at once), so nothing of this process writes between them, unless a read
 * meets another process's lock and waits (ChatService.messages then marks what the page shows unread). No
 * round trip to save in-process, and the joined statement cost more than its halves: materialising the page,
 * sorting the join and copying the header onto every row took 151 µs a page of 30 against 96 µs for the two
 * statements, and findChatPage 162 against 110 µs (30 November 2026, 1,000 conversations of bench/http.ts's data).
 */
const chatHeader = prepared((db, conversation: number, user: UserId) => chatHeaderQuery(db, conversation, user));
const messagesPage = preparedByShape(messagesQuery, (before) => (before ? 'before' : 'latest'));

/** The reads a message starts from (findSendContext), from `qc`: the database, or the same with a WITH before it. */
const sendContextQuery = (qc: QueryCreator<Database>, userId: UserId, conversationId: number) =>
  qc
    .selectFrom('conversations as c')
    .innerJoin('matches as m', 'm.id', 'c.match_id')
    .innerJoin('profiles as me', (join) =>
      join.on((eb) => eb.or([eb('me.id', '=', eb.ref('m.profile_low')), eb('me.id', '=', eb.ref('m.profile_high'))])),
    )
    .innerJoin('users as mu', 'mu.id', 'me.user_id')
    .innerJoin('profiles as p', (join) =>
      join.on(sql<boolean>`p.id = (case when m.profile_low = me.id then m.profile_high else m.profile_low end)`),
    )
    .select([
      'me.id as me_id',
      'me.name as me_name',
      'mu.premium_until as me_premium_until',
      'p.id as other_id',
      'p.user_id as other_user_id',
    ])
    .where('c.id', '=', conversationId)
    .where('me.user_id', '=', userId)
    .where('m.unmatched_at', 'is', null)
    .where(matchNotBlocked);

const sendContext = prepared((db, userId: UserId, conversationId: number) =>
  sendContextQuery(db, userId, conversationId),
);

/** PostgreSQL: the same, with the sender's rate counters incremented in a WITH (see countedRead). */
const sendContextCounting = preparedByShape(
  (db, rows: number, slot) => {
    const { qc, rateCounts } = countedRead(db, rows, slot);
    return sendContextQuery(qc, slot('user') as UserId, slot('conversation') as number).select(rateCounts);
  },
  (rows) => String(rows),
);

/**
 * All a message starts from, in one round trip: the sender's profile (with their premium) and the other member
 * of the conversation, if the sender may use it (findUsableConversation's rule). `counters` (RateCounter.plan's
 * rows) are incremented first and their counts answered (`rateCounts`): in the same statement on PostgreSQL,
 * where these were four round trips of a message's sixteen. Undefined when the sender may not use it, or has
 * no profile (the counters still counted): the caller finds out which.
 */
export async function findSendContext(
  db: Kysely<Database>,
  userId: UserId,
  conversationId: number,
  counters: readonly RateRow[],
) {
  const { row, rateCounts } = await readWithRateCounts(
    db,
    counters,
    (slots) => sendContextCounting(db, counters.length, { user: userId, conversation: conversationId, ...slots }),
    () => sendContext.first(db, userId, conversationId),
  );
  if (!row) return undefined;
  return {
    me: { id: row.me_id, name: row.me_name, premium_until: row.me_premium_until },
    other: { id: row.other_id, user_id: row.other_user_id },
    rateCounts,
  };
}

export async function findChatPage(
  db: Kysely<Database>,
  userId: UserId,
  conversationId: number,
  limit: number,
  beforeId?: number,
) {
  const before = beforeId !== undefined;
  const values = { conversation: conversationId, user: userId, limit, before: beforeId };
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    // Both started before either is awaited: on SQLite each runs as it is called (see chatHeader).
    const header = chatHeader.first(db, conversationId, userId);
    const page = messagesPage(db, before, values);
    const [head, messages] = await Promise.all([header, page]);
    return head && { ...headerOf(head), messages };
  }
  const rows = await chatPage(db, before, values);
  const head = rows[0];
  if (!head) return undefined;
  return {
    ...headerOf(head),
    messages: rows.flatMap((r) =>
      r.id === null || r.sender_id === null || r.content === null || r.created_at === null
        ? []
        : [{ id: r.id, sender_id: r.sender_id, content: r.content, created_at: r.created_at, read_at: r.read_at }],
    ),
  };
}

function headerOf(head: NonNullable<Awaited<ReturnType<typeof chatHeader.first>>>) {
  return {
    me: head.me_id,
    participant: {
      id: head.other_id,
      name: head.other_name,
      gender: head.other_gender,
      user_id: head.other_user_id,
      photo: head.other_photo,
    },
    anyUnread: Boolean(head.any_unread),
  };
}

export async function findConversationByMatch(db: Kysely<Database>, matchId: number) {
  return db.selectFrom('conversations').select('id').where('match_id', '=', matchId).executeTakeFirst();
}

export async function insertConversation(db: Kysely<Database>, matchId: number, now: string): Promise<void> {
  await db
    .insertInto('conversations')
    .values({ match_id: matchId, created_at: now, last_message_at: null })
    .onConflict((oc) => oc.column('match_id').doNothing())
    .execute();
}

/** One page, newest first from the cursor; ids only grow, so pages never overlap or skip. */
export async function pageOfMessages(db: Kysely<Database>, conversationId: number, limit: number, beforeId?: number) {
  let query = db
    .selectFrom('messages')
    .select(['id', 'sender_id', 'content', 'created_at', 'read_at'])
    .where('conversation_id', '=', conversationId)
    .orderBy('id', 'desc')
    .limit(limit);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  return query.execute();
}

export async function markRead(
  db: Kysely<Database>,
  conversationId: number,
  readerId: ProfileId,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('messages')
    .set({ read_at: now })
    .where('conversation_id', '=', conversationId)
    .where('sender_id', '!=', readerId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The sender's message with this key of their app's (a repeat of a send whose answer was lost). */
export async function findMessageByClientKey(db: Kysely<Database>, senderId: ProfileId, clientKey: string) {
  return db
    .selectFrom('messages')
    .select(['id', 'conversation_id', 'content', 'created_at', 'read_at'])
    .where('sender_id', '=', senderId)
    .where('client_key', '=', clientKey)
    .executeTakeFirst();
}

export async function insertMessage(
  db: Kysely<Database>,
  conversationId: number,
  senderId: ProfileId,
  content: string,
  now: string,
  clientKey: string | null = null,
) {
  const values = {
    conversation_id: conversationId,
    sender_id: senderId,
    content,
    created_at: now,
    read_at: null,
    client_key: clientKey,
  };
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The conversation's time in a WITH of the same statement: one round trip fewer in every message's transaction.
    return db
      .with('written', (w) => w.insertInto('messages').values(values).returning(['id', 'created_at']))
      .with('touched', (w) =>
        w.updateTable('conversations').set({ last_message_at: now }).where('id', '=', conversationId),
      )
      .selectFrom('written')
      .select(['written.id', 'written.created_at'])
      .executeTakeFirstOrThrow();
  }
  const row = await db.insertInto('messages').values(values).returning(['id', 'created_at']).executeTakeFirstOrThrow();
  await db.updateTable('conversations').set({ last_message_at: now }).where('id', '=', conversationId).execute();
  return row;
}

export async function countMessagesSince(
  db: Kysely<Database>,
  senderId: ProfileId,
  since: string,
): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('sender_id', '=', senderId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest };
}

/**
 * My conversations with a live match and a partner neither of us has blocked, with that partner as `p`: the
 * rule of the chat list, shared with the Chats badge so the two cannot drift apart.
 */
function usableChatsOf(db: Kysely<Database>, me: ProfileId) {
  const other = sql<ProfileId>`(case when m.profile_low = ${me} then m.profile_high else m.profile_low end)`;
  return db
    .selectFrom('conversations as c')
    .innerJoin('matches as m', 'm.id', 'c.match_id')
    .innerJoin('profiles as p', (join) => join.on(sql<boolean>`p.id = ${other}`))
    .where('m.unmatched_at', 'is', null)
    .where((eb) => eb.or([eb('m.profile_low', '=', me), eb('m.profile_high', '=', me)]))
    .where(notBlockedWith(me, sql.ref('p.id')));
}

/**
 * The conversation `c` holds a message to me I have not read (found through the messages_unread index), from
 * a sender whose account is not banned: a ban takes their unread messages off the badge and out of notifications.
 */
export const unreadTo = (me: ProfileId) =>
  sql<SqlBool>`exists (select 1 from messages u where u.conversation_id = c.id and u.sender_id <> ${me} and u.read_at is null
    and not exists (select 1 from profiles sp inner join users su on su.id = sp.user_id where sp.id = u.sender_id and su.banned_at is not null))`;

/** The chat list in one query: the other person, the last message and whether anything is unread. */
export async function listChats(db: Kysely<Database>, me: ProfileId) {
  return usableChatsOf(db, me)
    .select((eb) => [
      'c.id as conversation_id',
      'p.id as profile_id',
      'p.name',
      mainPhoto(eb).as('photo'),
      eb
        .selectFrom('messages as lm')
        .select('lm.content')
        .whereRef('lm.conversation_id', '=', 'c.id')
        .orderBy('lm.id', 'desc')
        .limit(1)
        .as('last_message'),
      eb
        .selectFrom('messages as ls')
        .select('ls.sender_id')
        .whereRef('ls.conversation_id', '=', 'c.id')
        .orderBy('ls.id', 'desc')
        .limit(1)
        .as('last_sender'),
      'c.last_message_at as last_message_time',
      unreadTo(me).as('has_unread'),
    ])
    .orderBy(sql`coalesce(c.last_message_at, c.created_at)`, 'desc')
    .orderBy('c.id', 'desc')
    .execute();
}

/** How many of those conversations hold a message to me I have not read, as a subquery (the Chats badge). */
export function countUnreadChats(db: Kysely<Database>, me: ProfileId) {
  return usableChatsOf(db, me)
    .where(unreadTo(me))
    .select((eb) => eb.fn.countAll().as('n'));
}

/**
 * The profile is about to be deleted: each person in a live conversation with it keeps a note that it ended
 * so (the conversation itself goes with the profile). Call it before the delete, in the same transaction.
 */
export async function recordDepartures(db: Kysely<Database>, leavingId: ProfileId, now: string): Promise<void> {
  const rows = await db
    .selectFrom('conversations as c')
    .innerJoin('matches as m', 'm.id', 'c.match_id')
    .select(['c.id', 'm.profile_low', 'm.profile_high'])
    .where('m.unmatched_at', 'is', null)
    .where((eb) => eb.or([eb('m.profile_low', '=', leavingId), eb('m.profile_high', '=', leavingId)]))
    .execute();
  if (rows.length === 0) return;
  await db
    .insertInto('departed_conversations')
    .values(
      rows.map((r) => ({
        conversation_id: r.id,
        profile_id: r.profile_low === leavingId ? r.profile_high : r.profile_low,
        departed_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['conversation_id', 'profile_id']).doNothing())
    .execute();
}

/** Whether this conversation of the profile's ended because the other person deleted their profile. */
export async function isDeparted(db: Kysely<Database>, conversationId: number, profileId: ProfileId): Promise<boolean> {
  const row = await db
    .selectFrom('departed_conversations')
    .select('conversation_id')
    .where('conversation_id', '=', conversationId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims the user's slot for a typing signal: true (and the slot is theirs from `now`) when their last one went
 * out at `freeSince` or before, or never. One conditional upsert, so of parallel calls (in any process) only
 * one wins a slot: PostgreSQL re-checks the condition on the row a concurrent call has just written.
 */
export async function claimTypingSlot(
  db: Kysely<Database>,
  userId: UserId,
  now: string,
  freeSince: string,
): Promise<boolean> {
  const row = await db
    .insertInto('typing_marks')
    .values({ user_id: userId, sent_at: now })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ sent_at: now }).where('typing_marks.sent_at', '<=', freeSince),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A new match's conversation opened with the messages its likes carried (issue 38), oldest first: each is its
 * sender's message as if sent in the chat, at the time of its like. Inside the match's transaction.
 */
export async function openConversationWithLikeMessages(
  db: Kysely<Database>,
  matchId: number,
  messages: readonly { sender: ProfileId; content: string; at: string }[],
  now: string,
): Promise<void> {
  if (messages.length === 0) return;
  await insertConversation(db, matchId, now);
  const conversation = await findConversationByMatch(db, matchId);
  if (!conversation) return;
  for (const m of [...messages].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)))
    await insertMessage(db, conversation.id, m.sender, m.content, m.at);
}
