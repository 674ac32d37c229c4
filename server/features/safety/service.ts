import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { addSeconds } from '../../clock.ts';
import { badRequest, notFound } from '../../errors.ts';
import { type EventBus, insertBadgeMarkers, insertEvents, writeMatchEnded } from '../events/index.ts';
import { endMatch, findUserOfProfile, lockPair, requireMyProfile } from '../relationships/index.ts';
import { assertAllowance } from '../rateLimits/index.ts';
import { evidenceOf, reportAllowance } from './reportEvidence.ts';
import { countReportsSince, findReportFacts, insertBlock, insertReport, profileExists } from './repository.ts';

const personNotFound = () => notFound('profile_not_found', 'Profile not found');

/** Blocking and reporting: the tools that keep people safe from each other. */
export class SafetyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    /** Called with a new report's id after it is committed (main.ts tells the admins in the bot). */
    private readonly reportFiled: (reportId: number) => void = () => undefined,
  ) {}

  /**
   * Blocks (and a report also blocks): neither sees, likes or messages the other again; a match ends. The
   * blocker's devices hear `unmatched` (the person disappears from every screen); the person blocked hears it
   * only when a match ended, which they would notice anyway: a block alone is never told to them. Both may
   * see their counts change. A report beyond the reporter's daily allowance is refused (429 `report_limit`)
   * and changes nothing, the block included; a plain block has no limit. A report carries the evidence the
   * server recorded between the two (reportEvidence.ts), which decides its weight in the admins' queue and
   * whether reports hold the person out of search.
   */
  async block(
    userId: UserId,
    profileId: ProfileId,
    report?: { reason: Database['reports']['reason']; comment: string },
  ): Promise<void> {
    const me = await requireMyProfile(this.db, userId);
    if (profileId === me.id) throw badRequest('cannot_block_self', 'You cannot block or report yourself');
    if (!(await profileExists(this.db, profileId))) throw personNotFound();
    const clockNow = this.clock.now();
    const now = clockNow.toISOString();
    const { reportId, told } = await this.db.transaction().execute(async (trx) => {
      // The like's locks: a like racing this block either commits first (and its match ends here) or sees the block.
      // The reporter's lock also serialises their reports, so parallel ones cannot all pass one count of the cap.
      await lockPair(trx, me.id, profileId);
      if (report) {
        const since = addSeconds(clockNow, -reportAllowance.windowSeconds).toISOString();
        assertAllowance(await countReportsSince(trx, me.id, since), reportAllowance, clockNow);
      }
      // Read before the block and the match's end below change what there is to read.
      const evidence = report ? evidenceOf(await findReportFacts(trx, me.id, profileId), clockNow) : null;
      await insertBlock(trx, me.id, profileId, now);
      const ended = await endMatch(trx, me.id, profileId, now);
      const other = await findUserOfProfile(trx, profileId);
      let told: UserId[] = [];
      if (other !== undefined && ended > 0)
        told = await writeMatchEnded(trx, { userId, profileId: me.id }, { userId: other, profileId }, now);
      else if (other !== undefined) {
        await insertEvents(trx, [{ userId, type: 'unmatched', payload: { profile_id: profileId } }], now);
        // Either may have counted the other's like on their Likes badge.
        told = [userId, other];
        await insertBadgeMarkers(trx, told, now);
      }
      const reportId =
        report && evidence
          ? await insertReport(trx, {
              reporter_id: me.id,
              reported_id: profileId,
              reason: report.reason,
              comment: report.comment,
              created_at: now,
              evidence,
            })
          : null;
      return { reportId, told };
    });
    await this.bus.publish(told);
    if (reportId !== null) this.reportFiled(reportId);
  }
}
