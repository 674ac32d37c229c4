import type { Kysely } from 'kysely';
import { signUpsPerCode } from '../referrals/index.ts';
import { evidenceWeight, reportWeights } from '../safety/index.ts';
import type { Database, ModerationFlagReason, ProfileId, UserId } from '../../../db/schema.ts';

/**
 * Reports nobody has decided on yet (or the one `reportId`), the admins' queue: the people with the most
 * weighted evidence against them first (safety/reportEvidence.ts: each reporter counted once, at their best
 * evidence, over open reports), then oldest first. With each: its own evidence and weight, the person's
 * total (`score`) and how many different people report them.
 */
export async function findOpenReports(db: Kysely<Database>, limit: number, reportId?: number) {
  let query = db
    .with('per_reporter', (w) =>
      w
        .selectFrom('reports')
        .select((eb) => ['reported_id', eb.fn.max(evidenceWeight(reportWeights, 'evidence')).as('w')])
        .where('resolved_at', 'is', null)
        .groupBy(['reported_id', 'reporter_id']),
    )
    .with('scores', (w) =>
      w
        .selectFrom('per_reporter')
        .select((eb) => [
          'reported_id',
          eb.fn.sum<string | number>('w').as('score'),
          eb.fn.countAll<string | number>().as('reporters'),
        ])
        .groupBy('reported_id'),
    )
    .selectFrom('reports as r')
    .innerJoin('profiles as p', 'p.id', 'r.reported_id')
    .innerJoin('scores as s', 's.reported_id', 'r.reported_id')
    .select([
      'r.id',
      'r.reason',
      'r.comment',
      'r.created_at',
      'r.evidence',
      evidenceWeight(reportWeights, 'r.evidence').as('weight'),
      's.score',
      's.reporters',
      'p.id as reported_profile_id',
      'p.user_id as reported_user_id',
      'p.name as reported_name',
      'p.held_at',
    ])
    .where('r.resolved_at', 'is', null);
  if (reportId !== undefined) query = query.where('r.id', '=', reportId);
  const rows = await query.orderBy('s.score', 'desc').orderBy('r.id').limit(limit).execute();
  return rows.map(({ reporters, score, weight, ...r }) => ({
    ...r,
    weight,
    score: Number(score),
    reporters: Number(reporters),
  }));
}

/** The profile (and its account) an open report is about; undefined when there is no such report or it is decided. */
export async function findOpenReportTarget(
  db: Kysely<Database>,
  reportId: number,
): Promise<{ profileId: ProfileId; userId: UserId } | undefined> {
  const row = await db
    .selectFrom('reports as r')
    .innerJoin('profiles as p', 'p.id', 'r.reported_id')
    .select(['r.reported_id', 'p.user_id'])
    .where('r.id', '=', reportId)
    .where('r.resolved_at', 'is', null)
    .executeTakeFirst();
  return row && { profileId: row.reported_id, userId: row.user_id };
}

/** Conditional on the report being open: false when another decision came first. */
export async function markReportDismissed(db: Kysely<Database>, reportId: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({ resolved_at: now, resolution: 'dismissed' })
    .where('id', '=', reportId)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Holds a profile out of search (as reports do, safety/repository.ts); false when it was already held. */
export async function holdProfile(db: Kysely<Database>, profileId: ProfileId, now: string): Promise<boolean> {
  const result = await db
    .updateTable('profiles')
    .set({ held_at: now })
    .where('id', '=', profileId)
    .where('held_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The user behind the profile a report is about, whether or not the report is still open. */
export async function findReportedUserId(db: Kysely<Database>, reportId: number): Promise<UserId | undefined> {
  const row = await db
    .selectFrom('reports as r')
    .innerJoin('profiles as p', 'p.id', 'r.reported_id')
    .select('p.user_id')
    .where('r.id', '=', reportId)
    .executeTakeFirst();
  return row?.user_id;
}

/** Lets a held profile back into search. */
export async function releaseProfileHold(db: Kysely<Database>, profileId: ProfileId): Promise<void> {
  await db.updateTable('profiles').set({ held_at: null }).where('id', '=', profileId).execute();
}

export async function releaseHoldsOfUser(db: Kysely<Database>, userId: UserId): Promise<void> {
  await db.updateTable('profiles').set({ held_at: null }).where('user_id', '=', userId).execute();
}

export async function userExists(db: Kysely<Database>, userId: UserId): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

/** Answers false when the user is already banned (or does not exist): conditional, so a second ban does nothing. */
export async function markUserBanned(db: Kysely<Database>, userId: UserId, now: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ banned_at: now })
    .where('id', '=', userId)
    .where('banned_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Answers false when the user was not banned (or does not exist). */
export async function clearUserBan(db: Kysely<Database>, userId: UserId): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ banned_at: null })
    .where('id', '=', userId)
    .where('banned_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The people whose badge counts can include this user: the other side of their live matches (new matches,
 * unread chats) and those they liked (new likers). A ban or an unban changes what those counts show.
 */
export async function findBadgeWatchersOf(db: Kysely<Database>, userId: UserId): Promise<UserId[]> {
  const rows = await db
    .selectFrom('profiles as me')
    .innerJoin('matches as m', (join) =>
      join.on((eb) => eb.or([eb('m.profile_low', '=', eb.ref('me.id')), eb('m.profile_high', '=', eb.ref('me.id'))])),
    )
    .innerJoin('profiles as o', (join) =>
      join.on((eb) =>
        eb.and([
          eb('o.id', '!=', eb.ref('me.id')),
          eb.or([eb('o.id', '=', eb.ref('m.profile_low')), eb('o.id', '=', eb.ref('m.profile_high'))]),
        ]),
      ),
    )
    .select('o.user_id')
    .where('me.user_id', '=', userId)
    .where('m.unmatched_at', 'is', null)
    .union(
      db
        .selectFrom('profiles as me')
        .innerJoin('swipes as s', 's.swiper_id', 'me.id')
        .innerJoin('profiles as o', 'o.id', 's.target_id')
        .select('o.user_id')
        .where('me.user_id', '=', userId)
        .where('s.liked', '=', 1),
    )
    .execute();
  return rows.map((r) => r.user_id);
}

/** Every session of the user: the next request with any of them is signed out. */
export async function deleteSessionsOfUser(db: Kysely<Database>, userId: UserId): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Closes every open report against the user's profile as decided by their ban. */
export async function markOpenReportsAgainstUserBanned(
  db: Kysely<Database>,
  userId: UserId,
  now: string,
): Promise<void> {
  await db
    .updateTable('reports')
    .set({ resolved_at: now, resolution: 'banned' })
    .where('resolved_at', 'is', null)
    .where('reported_id', 'in', (eb) => eb.selectFrom('profiles').select('profiles.id').where('user_id', '=', userId))
    .execute();
}

/** The user's current premium end; undefined when there is no such user (null: never had premium). */
export async function findPremiumUntil(
  db: Kysely<Database>,
  userId: UserId,
): Promise<{ premium_until: string | null } | undefined> {
  return db.selectFrom('users').select('premium_until').where('id', '=', userId).executeTakeFirst();
}

export async function setPremiumUntil(db: Kysely<Database>, userId: UserId, until: string | null): Promise<void> {
  await db.updateTable('users').set({ premium_until: until }).where('id', '=', userId).execute();
}

/** A payment with what a refund needs to reach the provider (the buyer's Telegram id for Stars). */
export async function findPaymentForRefund(db: Kysely<Database>, paymentId: number) {
  return db
    .selectFrom('payments')
    .innerJoin('users', 'users.id', 'payments.user_id')
    .select([
      'payments.provider',
      'payments.provider_payment_id',
      'payments.status',
      'payments.amount',
      'users.telegram_id',
    ])
    .where('payments.id', '=', paymentId)
    .executeTakeFirst();
}

/** Moves a credited payment to refunded; false when it was not credited (never refunded twice). */
export async function markPaymentRefunded(db: Kysely<Database>, paymentId: number): Promise<boolean> {
  const moved = await db
    .updateTable('payments')
    .set({ status: 'refunded' })
    .where('id', '=', paymentId)
    .where('status', '=', 'succeeded')
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}

/** Who paid and for how many days; the payment must exist. */
export async function findPaymentTerms(db: Kysely<Database>, paymentId: number) {
  return db
    .selectFrom('payments')
    .select(['user_id', 'interval_days'])
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
}

export async function findOpenFlags(db: Kysely<Database>) {
  return db.selectFrom('moderation_flags').selectAll().where('resolved_at', 'is', null).orderBy('id').execute();
}

/** The flagged account; undefined when the flag does not exist or was already resolved. */
export async function markFlagResolved(db: Kysely<Database>, flagId: number, now: string): Promise<UserId | undefined> {
  const row = await db
    .updateTable('moderation_flags')
    .set({ resolved_at: now })
    .where('id', '=', flagId)
    .where('resolved_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** One open flag per person and reason is enough for an admin to look. */
export async function hasOpenFlag(
  db: Kysely<Database>,
  userId: UserId,
  reason: ModerationFlagReason,
): Promise<boolean> {
  const open = await db
    .selectFrom('moderation_flags')
    .select('id')
    .where('user_id', '=', userId)
    .where('reason', '=', reason)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return open !== undefined;
}

export async function insertFlag(
  db: Kysely<Database>,
  flag: { user_id: UserId; reason: ModerationFlagReason; details: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('moderation_flags')
    .values({ ...flag, resolved_at: null })
    .execute();
}

/** `email` as stored: trimmed and lower-cased by the caller. */
export async function findUserIdByEmail(db: Kysely<Database>, email: string): Promise<UserId | undefined> {
  return (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst())?.id;
}

/**
 * How many messages the sender has in a conversation, counting at most two: one means the message just
 * sent was their first there.
 */
export async function countOwnMessagesUpToTwo(
  db: Kysely<Database>,
  conversationId: number,
  senderProfileId: ProfileId,
): Promise<number> {
  return (
    await db
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', '=', conversationId)
      .where('sender_id', '=', senderProfileId)
      .limit(2)
      .execute()
  ).length;
}

/** In how many different conversations the sender wrote exactly this text since `since`. */
export async function countConversationsWithText(
  db: Kysely<Database>,
  senderProfileId: ProfileId,
  content: string,
  since: string,
): Promise<number> {
  const { conversations } = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.count<string | number>('conversation_id').distinct().as('conversations'))
    .where('sender_id', '=', senderProfileId)
    .where('created_at', '>=', since)
    .where('content', '=', content)
    .executeTakeFirstOrThrow();
  return Number(conversations);
}

export interface Stats {
  since: string;
  users: number;
  newUsers: number;
  profiles: number;
  newProfiles: number;
  matches: number;
  messages: number;
  payments: number;
  /** Roubles of web payments credited in the period (Stars are counted in payments only). */
  revenueRub: number;
  openReports: number;
  /** Sign-ups in the period that came through an invitation, per referral code (most first). */
  referrals: { code: string; signUps: number }[];
}

/** What happened since `since`, and the totals, for the admins' /stats, the CLI and the weekly report. */
export async function statsSince(db: Kysely<Database>, since: Date): Promise<Stats> {
  const from = since.toISOString();
  const count = (table: 'users' | 'profiles' | 'matches' | 'messages', after?: string) => {
    let query = db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as('n'));
    if (after !== undefined) query = query.where('created_at', '>=', after);
    return query.executeTakeFirstOrThrow().then((r) => Number(r.n));
  };
  const [users, newUsers, profiles, newProfiles, matches, messages, payments, openReports, referrals] =
    await Promise.all([
      count('users'),
      count('users', from),
      count('profiles'),
      count('profiles', from),
      count('matches', from),
      count('messages', from),
      db
        .selectFrom('payments')
        .select((eb) => [
          eb.fn.countAll<string | number>().as('n'),
          eb.fn
            .sum<string | number | null>(eb.case().when('currency', '=', 'RUB').then(eb.ref('amount')).else(0).end())
            .as('rub'),
        ])
        .where('status', '=', 'succeeded')
        .where('credited_at', '>=', from)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('reports')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('resolved_at', 'is', null)
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n)),
      signUpsPerCode(db, from),
    ]);
  return {
    since: from,
    users,
    newUsers,
    profiles,
    newProfiles,
    matches,
    messages,
    payments: Number(payments.n),
    revenueRub: Number(payments.rub ?? 0),
    openReports,
    referrals,
  };
}

/** What decides whether an account is an admin (adminAccess.ts). */
export async function findAdminIdentity(db: Kysely<Database>, userId: UserId) {
  return db
    .selectFrom('users')
    .select(['email', 'verified_at', 'telegram_id', 'banned_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
}
