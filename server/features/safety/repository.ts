import { sql, type Kysely } from 'kysely';
import type { Database, ProfileId, ReportEvidence } from '../../../db/schema.ts';
import type { AllowanceUse } from '../rateLimits/index.ts';
import { pair } from '../relationships/index.ts';
import { holdEvidenceWeight, holdingEvidence, reportWeights, type ReportFacts } from './reportEvidence.ts';

export async function profileExists(db: Kysely<Database>, profileId: ProfileId): Promise<boolean> {
  return (await db.selectFrom('profiles').select('id').where('id', '=', profileId).executeTakeFirst()) !== undefined;
}

export async function insertBlock(
  db: Kysely<Database>,
  blocker: ProfileId,
  blocked: ProfileId,
  now: string,
): Promise<void> {
  await db
    .insertInto('blocks')
    .values({ blocker_id: blocker, blocked_id: blocked, created_at: now })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
}

/**
 * A report's weight as SQL, from `reports.evidence` (`column`): the weights are reportEvidence.ts's, written
 * into the statement as constants (they are ours, never input), 0 for any kind `weights` leaves out.
 */
export function evidenceWeight(weights: Partial<Record<ReportEvidence, number>>, column: string) {
  const cases = Object.entries(weights).map(([kind, weight]) => sql`when ${sql.lit(kind)} then ${sql.lit(weight)}`);
  return sql<number>`(case ${sql.ref(column)} ${sql.join(cases, sql` `)} else 0 end)`;
}

/** reportWeights restricted to the kinds that may hold a profile. */
const holdingWeights = Object.fromEntries(holdingEvidence.map((kind) => [kind, reportWeights[kind]]));

/** The reports a person filed since `since`, for the daily cap; under the reporter's lock (lockPair). */
export async function countReportsSince(
  db: Kysely<Database>,
  reporterId: ProfileId,
  since: string,
): Promise<AllowanceUse> {
  const row = await db
    .selectFrom('reports')
    .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.min<string | null>('created_at').as('oldest')])
    .where('reporter_id', '=', reporterId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest };
}

/**
 * What the server recorded between a reporter and the person they report (reportEvidence.ts): the
 * reporter's account age; a swipe of theirs on the person, or the person's like they saw on their Likes
 * screen (`target_seen`); a match, live or ended (the report itself ends it); a message from the person in
 * their chat. One statement, each an indexed look.
 */
export async function findReportFacts(
  db: Kysely<Database>,
  reporterId: ProfileId,
  reportedId: ProfileId,
): Promise<ReportFacts> {
  const { low, high } = pair(reporterId, reportedId);
  const row = await db
    .selectFrom('profiles as me')
    .innerJoin('users as u', 'u.id', 'me.user_id')
    .select((eb) => [
      'u.created_at',
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('swipes as s')
              .select('s.liked')
              .where('s.swiper_id', '=', reporterId)
              .where('s.target_id', '=', reportedId),
          ),
          eb.exists(
            eb
              .selectFrom('swipes as s')
              .select('s.liked')
              .where('s.swiper_id', '=', reportedId)
              .where('s.target_id', '=', reporterId)
              .where('s.liked', '=', 1)
              .where('s.target_seen', '=', 1),
          ),
        ])
        .as('shown'),
      eb
        .exists(
          eb
            .selectFrom('matches as m')
            .select('m.id')
            .where('m.profile_low', '=', low)
            .where('m.profile_high', '=', high),
        )
        .as('matched'),
      eb
        .exists(
          eb
            .selectFrom('matches as m')
            .innerJoin('conversations as c', 'c.match_id', 'm.id')
            .innerJoin('messages as msg', 'msg.conversation_id', 'c.id')
            .select('msg.id')
            .where('m.profile_low', '=', low)
            .where('m.profile_high', '=', high)
            .where('msg.sender_id', '=', reportedId),
        )
        .as('chatted'),
    ])
    .where('me.id', '=', reporterId)
    .executeTakeFirstOrThrow();
  // SQLite answers 0/1, PostgreSQL true/false.
  return {
    accountCreatedAt: row.created_at,
    shown: Boolean(row.shown),
    matched: Boolean(row.matched),
    chatted: Boolean(row.chatted),
  };
}

/**
 * Files a report. When it carries evidence that may hold (reportEvidence.ts) and the open reports against
 * the profile now weigh `holdEvidenceWeight` (each reporter once, at their best), the profile is held out
 * of search and likes until an admin decides; weaker reports only raise it in the admins' queue. Answers
 * the report's id.
 */
export async function insertReport(
  db: Kysely<Database>,
  report: {
    reporter_id: ProfileId;
    reported_id: ProfileId;
    reason: Database['reports']['reason'];
    comment: string;
    created_at: string;
    evidence: ReportEvidence;
  },
): Promise<number> {
  const { id } = await db
    .insertInto('reports')
    .values({ ...report, resolved_at: null, resolution: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (!holdingEvidence.includes(report.evidence)) return id;
  const { weight } = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('reports as o')
        .select((o) => o.fn.max(evidenceWeight(holdingWeights, 'o.evidence')).as('w'))
        .where('o.reported_id', '=', report.reported_id)
        .where('o.resolved_at', 'is', null)
        .groupBy('o.reporter_id')
        .as('per_reporter'),
    )
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number | null>('per_reporter.w'), sql.lit(0)).as('weight'))
    .executeTakeFirstOrThrow();
  if (Number(weight) >= holdEvidenceWeight) {
    await db
      .updateTable('profiles')
      .set({ held_at: report.created_at })
      .where('id', '=', report.reported_id)
      .where('held_at', 'is', null)
      .execute();
  }
  return id;
}
