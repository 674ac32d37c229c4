import type { ReportEvidence } from '../../../db/schema.ts';

/**
 * How much one report weighs, and when reports alone may take a profile out of search: the one place for
 * these numbers (the report's hold and the admins' queue both read them).
 *
 * The threat (security audit): a few throwaway accounts reporting a profile id they were never shown used
 * to hide anyone until an admin acted, without its owner being told. So a report weighs only what the
 * server itself recorded of the reporter and the person reported, at the moment of the report:
 *   - new_account: the reporter's account is less than `establishedAfterSeconds` old: nothing, whatever
 *     else is true (a burst of fresh sign-ups is the cheapest attack there is);
 *   - unseen: nothing recorded between the two: they were never shown the profile: nothing;
 *   - shown: the reporter swiped the person (a card shown in search or among likers), or opened their
 *     Likes screen after the person liked them. Weak: a swipe may also be sent by id, without the card;
 *   - matched: the two matched (now or once): the person liked the reporter back, which no attacker can do
 *     for them;
 *   - chatted: the person wrote to the reporter in their chat: the reporter has read what they report.
 * Every report still reaches the admins (the bot alert, `npm run admin -- reports`); the weights order the
 * queue, so the best-founded reports come first.
 */
export const reportWeights: Readonly<Record<ReportEvidence, number>> = {
  new_account: 0,
  unseen: 0,
  shown: 1,
  matched: 3,
  chatted: 5,
};

/**
 * Only what the person did themselves counts towards a hold: liking the reporter back (matched), or
 * writing to them (chatted). A swipe is the reporter's own act, possible by id alone, so it raises the
 * person in the queue but never hides them.
 */
export const holdingEvidence: readonly ReportEvidence[] = ['matched', 'chatted'];

/**
 * "Strong" evidence: the weights of different established reporters (each counted once, at their best
 * evidence, open reports only) reaching this hold the profile out of search and likes until an admin
 * decides. 9 is three reporters who matched with the person (3 x 3), or two the person wrote to (2 x 5),
 * or one written to and two matched; never fewer than two reporters, and never by swipes alone.
 */
export const holdEvidenceWeight = 9;

/**
 * An account this old or older is established. A day: an attacker must make their accounts a day ahead
 * (and keep them, verified, until then), so a wave of sign-ups on the spot weighs nothing; a real member
 * who matched and chatted has usually been around that long, and their report still reaches the admins
 * at once if not.
 */
export const establishedAfterSeconds = 24 * 3600;

/**
 * Reports one person may file in a rolling day. Ten: more than anyone meets people to report in a day
 * (a report also blocks, which has no limit), few enough that one account cannot flood the admins' queue.
 */
export const reportAllowance = {
  limit: 10,
  windowSeconds: 86_400,
  code: 'report_limit',
  message: 'You have sent as many reports as a day allows. Please try again later, or block the person instead.',
} as const;

/** What the server recorded between a reporter and the person reported, read at the moment of the report. */
export interface ReportFacts {
  /** The reporter's account's `created_at`. */
  accountCreatedAt: string;
  /** The reporter swiped the person, or saw their like on the Likes screen. */
  shown: boolean;
  matched: boolean;
  /** The person wrote to the reporter. */
  chatted: boolean;
}

/** The evidence a report carries (see reportWeights). */
export function evidenceOf(facts: ReportFacts, now: Date): ReportEvidence {
  if (new Date(facts.accountCreatedAt).getTime() > now.getTime() - establishedAfterSeconds * 1000) return 'new_account';
  if (facts.chatted) return 'chatted';
  if (facts.matched) return 'matched';
  if (facts.shown) return 'shown';
  return 'unseen';
}
