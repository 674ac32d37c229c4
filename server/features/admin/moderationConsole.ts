import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import type {
  AdminAuditEntry,
  AdminAuditPage,
  AdminHeldPhoto,
  AdminPerson,
  AdminPersonCard,
  AdminReport,
  AdminStats,
  AdminVerification,
} from '../../contract/admin.ts';
import type { Clock } from '../../clock.ts';
import { conflict, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { PhotoStore } from '../photos/index.ts';
import { selfieFileNames, setVerified } from '../photoVerification/index.ts';
import type { AdminService } from './adminService.ts';
import { type AdminActor, insertAdminAction, pageAdminActions, pageAdminActionsForward } from './auditLog.ts';
import {
  activePeoplePerDay,
  clearHeldPhoto,
  countPerDay,
  countSessionsOf,
  decidePendingVerification,
  deleteHeldPhoto,
  findAccount,
  findCardsByUser,
  findHeldPhotos,
  findLastMessagesBetween,
  findPaymentsOf,
  findPendingVerifications,
  findPhotoOwner,
  findPhotosOf,
  findProfileOwners,
  findReporters,
  findReportsAgainst,
  findReportsBy,
  findUserIdsForLookup,
  findVerification,
  paymentsPerDay,
} from './consoleRepository.ts';

const alreadyDecided = () => conflict('already_decided', 'Another admin has already decided this');
/** How many messages of a reported chat the console shows. */
const reportMessages = 20;
const queueSize = 50;
/** Audit log rows per database read of the CSV export. */
const auditCsvPage = 500;

/** A selfie's stored names: the upload store also wrote a thumbnail beside it, which must go too. */

/**
 * The moderation console's queues and decisions (`/api/admin/*`): reports beside the reported person's
 * photos (held ones too) and their chat with the reporter, pending selfie checks, held photos, a person
 * lookup, the audit log and daily stats. Report and account actions go through AdminService, the same code
 * the CLI and the bot use; every decision writes the audit log in its own transaction.
 */
export class ModerationConsole {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly admin: AdminService,
    private readonly photos: PhotoStore,
    private readonly logger: Logger,
  ) {}

  private async cards(userIds: readonly UserId[]): Promise<Map<UserId, AdminPersonCard>> {
    const rows = await findCardsByUser(this.db, userIds);
    const photos = await findPhotosOf(
      this.db,
      rows.flatMap((r) => (r.profile_id === null ? [] : [r.profile_id])),
    );
    return new Map(
      rows.map((r) => [
        r.user_id,
        {
          user_id: r.user_id,
          profile_id: r.profile_id,
          name: r.name,
          age: r.age,
          city: r.city,
          bio: r.bio,
          verified: r.verified === 1,
          banned: r.banned_at !== null,
          held: r.held_at !== null,
          photos: photos
            .filter((p) => p.profile_id === r.profile_id)
            .map((p) => ({
              id: p.id,
              url: `/api/uploads/${p.file_name}`,
              moderation: p.moderation,
              screen_score: p.screen_score,
            })),
        },
      ]),
    );
  }

  private async card(userId: UserId): Promise<AdminPersonCard> {
    const card = (await this.cards([userId])).get(userId);
    if (!card) throw notFound('user_not_found', 'No such user');
    return card;
  }

  async reports(): Promise<AdminReport[]> {
    const open = await this.admin.openReports(queueSize);
    const reporters = new Map(
      (
        await findReporters(
          this.db,
          open.map((r) => r.id),
        )
      ).map((r) => [r.id, r.reporter_id]),
    );
    const owners = new Map((await findProfileOwners(this.db, [...reporters.values()])).map((o) => [o.id, o]));
    const cards = await this.cards(open.map((r) => r.reported_user_id));
    return Promise.all(
      open.map(async (r) => {
        const reporterId = reporters.get(r.id) ?? (0 as ProfileId);
        const reporter = owners.get(reporterId);
        const messages = await findLastMessagesBetween(this.db, reporterId, r.reported_profile_id, reportMessages);
        return {
          id: r.id,
          reason: r.reason,
          comment: r.comment,
          created_at: r.created_at,
          evidence: r.evidence,
          weight: r.weight,
          score: r.score,
          reporters: r.reporters,
          reporter: { user_id: reporter?.user_id ?? 0, profile_id: reporterId, name: reporter?.name ?? '' },
          reported: cards.get(r.reported_user_id) ?? emptyCard(r.reported_user_id),
          messages: messages
            .reverse()
            .map((m) => ({ from_profile_id: m.sender_id, content: m.content, created_at: m.created_at })),
        };
      }),
    );
  }

  async verifications(): Promise<AdminVerification[]> {
    const rows = await findPendingVerifications(this.db, queueSize);
    const cards = await this.cards(rows.map((r) => r.user_id));
    return rows.map((r) => ({
      id: r.id,
      created_at: r.created_at,
      pose_id: r.pose_id,
      similarity: r.similarity,
      pose_ok: r.pose_ok === null ? null : r.pose_ok === 1,
      faces: r.faces,
      reason: r.reason,
      selfie_url: r.selfie_name ? `/api/admin/verifications/${r.id}/selfie` : null,
      person: cards.get(r.user_id) ?? emptyCard(r.user_id),
    }));
  }

  /**
   * The selfie of a check, for admins only, gone once decided. It is stored under an unguessable upload
   * name that no response but this one carries (never linked from a profile); each view is in the audit log.
   */
  async selfie(id: number, by: AdminActor) {
    const row = await findVerification(this.db, id);
    if (!row?.selfie_name) throw notFound('selfie_not_found', 'No selfie for this check');
    const file = await this.photos.open(row.selfie_name);
    if (!file) throw notFound('selfie_not_found', 'No selfie for this check');
    try {
      await insertAdminAction(
        this.db,
        by,
        { action: 'view_selfie', userId: row.user_id, profileId: row.profile_id, details: { verification_id: id } },
        this.clock.now().toISOString(),
      );
    } catch (error) {
      file.body.destroy(); // no face leaves without its audit line
      throw error;
    }
    return file;
  }

  /**
   * Approve: the profile is verified. Both: the check is decided by this admin, and the selfie file is
   * deleted (the decision stays, not the face).
   */
  async resolveVerification(id: number, action: 'approve' | 'reject', by: AdminActor, reason = ''): Promise<void> {
    const now = this.clock.now().toISOString();
    const existing = await findVerification(this.db, id);
    if (!existing) throw notFound('verification_not_found', 'No such verification');
    const selfie = await this.db.transaction().execute(async (trx) => {
      const decided = await decidePendingVerification(trx, id, {
        status: action === 'approve' ? 'verified' : 'rejected',
        by,
        now,
      });
      if (!decided) throw alreadyDecided();
      if (action === 'approve') await setVerified(trx, decided.profile_id, true);
      await insertAdminAction(
        trx,
        by,
        {
          action: action === 'approve' ? 'verification_approve' : 'verification_reject',
          userId: existing.user_id,
          profileId: decided.profile_id,
          reason,
          details: { verification_id: id },
        },
        now,
      );
      // RETURNING gives the row after the update (selfie_name already null): the name read before is the file.
      return existing.selfie_name;
    });
    if (selfie) await this.removeFile(() => this.photos.removeNames(selfieFileNames(selfie)), 'selfie not removed');
  }

  async heldPhotos(): Promise<AdminHeldPhoto[]> {
    const rows = await findHeldPhotos(this.db, queueSize);
    const cards = await this.cards(rows.map((r) => r.user_id));
    return rows.map((r) => ({
      id: r.id,
      url: `/api/uploads/${r.file_name}`,
      screen_score: r.screen_score,
      created_at: r.created_at,
      owner: cards.get(r.user_id) ?? emptyCard(r.user_id),
    }));
  }

  /** Approve: shown to everyone. Remove: the photo's row goes, then its files (photo, thumbnail, blurred copy). */
  async resolvePhoto(id: number, action: 'approve' | 'remove', by: AdminActor, reason = ''): Promise<void> {
    const now = this.clock.now().toISOString();
    const owner = await findPhotoOwner(this.db, id);
    if (!owner) throw notFound('photo_not_found', 'No such photo');
    const removed = await this.db.transaction().execute(async (trx) => {
      let files: { fileName: string; blurName: string | null } | undefined;
      if (action === 'approve') {
        if (!(await clearHeldPhoto(trx, id))) throw alreadyDecided();
      } else {
        const row = await deleteHeldPhoto(trx, id);
        if (!row) throw alreadyDecided();
        files = { fileName: row.file_name, blurName: row.blur_name };
      }
      await insertAdminAction(
        trx,
        by,
        {
          action: action === 'approve' ? 'photo_approve' : 'photo_remove',
          userId: owner.user_id,
          profileId: owner.profile_id,
          reason,
          details: { photo_id: id },
        },
        now,
      );
      return files;
    });
    if (removed) await this.removeFile(() => this.photos.remove([removed]), 'photo files not removed');
  }

  /** Files go after the commit; a failure leaves an orphan the cleanup job sweeps, never a served file. */
  private async removeFile(remove: () => Promise<void>, message: string): Promise<void> {
    try {
      await remove();
    } catch (error) {
      this.logger.warn({ err: error }, message);
    }
  }

  /**
   * Everyone a search names (an e-mail, a Telegram id, a profile or account id), with their history. The
   * search itself goes to the audit log (who looked for what, and whom it found): it reads personal data.
   */
  async lookup(query: string, by: AdminActor): Promise<AdminPerson[]> {
    const ids = await findUserIdsForLookup(this.db, query);
    const people = await Promise.all(ids.map((id) => this.person(id)));
    await insertAdminAction(
      this.db,
      by,
      // No target: a search is not something done to the people it finds (their history stays theirs).
      { action: 'lookup', details: { query, user_ids: ids } },
      this.clock.now().toISOString(),
    );
    return people;
  }

  async person(userId: UserId): Promise<AdminPerson> {
    const account = await findAccount(this.db, userId);
    if (!account) throw notFound('user_not_found', 'No such user');
    const card = await this.card(userId);
    const profileId = (await findCardsByUser(this.db, [userId]))[0]?.profile_id ?? null;
    const [sessions, against, by, payments, actions] = await Promise.all([
      countSessionsOf(this.db, userId),
      profileId === null ? [] : findReportsAgainst(this.db, profileId),
      profileId === null ? [] : findReportsBy(this.db, profileId),
      findPaymentsOf(this.db, userId),
      pageAdminActions(this.db, { limit: 50, userId }),
    ]);
    return {
      user_id: account.id,
      email: account.email,
      email_verified: account.verified_at !== null,
      telegram_id: account.telegram_id,
      telegram_username: account.telegram_username,
      created_at: account.created_at,
      banned_at: account.banned_at,
      premium_until: account.premium_until,
      sessions,
      card,
      reports_against: against,
      reports_by: by,
      payments,
      actions,
    };
  }

  async audit(options: { before?: number | undefined; limit?: number | undefined }): Promise<AdminAuditPage> {
    const limit = options.limit ?? 50;
    const entries = await pageAdminActions(this.db, { before: options.before, limit: limit + 1 });
    const page = entries.slice(0, limit);
    return { entries: page, next_before: entries.length > limit ? (page.at(-1)?.id ?? null) : null };
  }

  /**
   * The whole log, oldest first, as CSV (RFC 4180), read and written a page of the database at a time (keyset
   * on id): memory holds one page whatever the log's size. Lines written during the download may be included.
   */
  async *auditCsv(): AsyncGenerator<string> {
    yield 'id,created_at,admin,action,target_user_id,target_profile_id,reason,details\r\n';
    let after: number | undefined;
    for (;;) {
      const page = await pageAdminActionsForward(this.db, { after, limit: auditCsvPage });
      if (page.length === 0) return;
      yield page.map(csvLine).join('');
      after = page.at(-1)?.id;
      if (page.length < auditCsvPage) return;
    }
  }

  /** Per day for the last `days` days (today included, UTC): sign-ups, active people, matches, messages, payments. */
  async dailyStats(days: number): Promise<AdminStats> {
    const today = new Date(this.clock.now());
    today.setUTCHours(0, 0, 0, 0);
    const start = new Date(today.getTime() - (days - 1) * 86_400_000);
    const from = start.toISOString();
    const [signUps, active, matches, messages, payments] = await Promise.all([
      countPerDay(this.db, 'users', from),
      activePeoplePerDay(this.db, from),
      countPerDay(this.db, 'matches', from),
      countPerDay(this.db, 'messages', from),
      paymentsPerDay(this.db, from),
    ]);
    const byDay = (rows: { day: string; n: number }[]) => new Map(rows.map((r) => [r.day, r.n]));
    const maps = [signUps, active, matches, messages, payments].map(byDay);
    const series = Array.from({ length: days }, (_, i) => {
      const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      const [s, a, m, msg, p] = maps.map((map) => map.get(day) ?? 0);
      return { day, sign_ups: s ?? 0, active: a ?? 0, matches: m ?? 0, messages: msg ?? 0, payments: p ?? 0 };
    });
    return { days, series };
  }
}

function emptyCard(userId: UserId): AdminPersonCard {
  return {
    user_id: userId,
    profile_id: null,
    name: null,
    age: null,
    city: null,
    bio: null,
    verified: false,
    banned: false,
    held: false,
    photos: [],
  };
}

/** A CSV field: quoted when it holds a quote, comma or line break; a leading = + - @ is defused for spreadsheets. */
function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(e: AdminAuditEntry): string {
  return (
    [e.id, e.created_at, e.admin, e.action, e.target_user_id, e.target_profile_id, e.reason, e.details]
      .map((v) => csvField(typeof v === 'number' ? String(v) : v))
      .join(',') + '\r\n'
  );
}
