import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import { badRequest, notFound } from '../../errors.ts';
import { requireMyProfile } from '../relationships/myProfile.ts';
import { endMatch, lockPair } from '../relationships/repository.ts';
import type { SearchService } from '../search/service.ts';
import { insertBlock, insertReport, profileExists } from './repository.ts';

const personNotFound = () => notFound('profile_not_found', 'Profile not found');

/** Blocking and reporting: the tools that keep people safe from each other. */
export class SafetyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly search: Pick<SearchService, 'forget'>,
    /** Called with a new report's id after it is committed (main.ts tells the admins in the bot). */
    private readonly reportFiled: (reportId: number) => void = () => undefined,
  ) {}

  /** Blocks (and a report also blocks): neither sees, likes or messages the other again; a match ends. */
  async block(userId: UserId, profileId: ProfileId, report?: { reason: Database['reports']['reason']; comment: string }): Promise<void> {
    const me = await requireMyProfile(this.db, userId);
    if (profileId === me.id) throw badRequest('cannot_block_self', 'You cannot block or report yourself');
    if (!(await profileExists(this.db, profileId))) throw personNotFound();
    const now = this.clock.now().toISOString();
    const reportId = await this.db.transaction().execute(async (trx) => {
      // The like's locks: a like racing this block either commits first (and its match ends here) or sees the block.
      await lockPair(trx, me.id, profileId);
      await insertBlock(trx, me.id, profileId, now);
      await endMatch(trx, me.id, profileId, now);
      return report ? insertReport(trx, { reporter_id: me.id, reported_id: profileId, reason: report.reason, comment: report.comment, created_at: now }) : null;
    });
    this.search.forget(me.id, profileId);
    if (reportId !== null) this.reportFiled(reportId);
  }
}
