import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import type { AdminAuditEntry } from '../../contract/admin.ts';

/**
 * Who did an admin action, as the audit log names them: `email:<address>` (the console, signed in with an
 * ADMIN_EMAILS address), `telegram:<id>` (the bot, or the console opened from Telegram), `cli` (npm run admin).
 */
export type AdminActor = `email:${string}` | `telegram:${string}` | 'cli';

/** One line of the audit log, written in the same transaction as the action it records. */
export interface AuditRecord {
  action: string;
  userId?: UserId | null | undefined;
  profileId?: ProfileId | null | undefined;
  reason?: string | undefined;
  details?: Record<string, unknown>;
}

export async function insertAdminAction(
  db: Kysely<Database>,
  by: AdminActor,
  record: AuditRecord,
  now: string,
): Promise<void> {
  await db
    .insertInto('admin_actions')
    .values({
      admin: by,
      action: record.action,
      target_user_id: record.userId ?? null,
      target_profile_id: record.profileId ?? null,
      reason: record.reason ?? '',
      details: JSON.stringify(record.details ?? {}),
      created_at: now,
    })
    .execute();
}

const toEntry = (row: {
  id: number;
  admin: string;
  action: string;
  target_user_id: number | null;
  target_profile_id: number | null;
  reason: string;
  details: string;
  created_at: string;
}): AdminAuditEntry => {
  let details: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.details);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) details = parsed as Record<string, unknown>;
  } catch {
    // A hand-edited row: shown without details rather than failing the whole page.
  }
  return { ...row, details };
};

/** The newest entries first, older than `before` when given (keyset paging: stable while admins keep acting). */
export async function pageAdminActions(
  db: Kysely<Database>,
  options: { before?: number | undefined; limit: number; userId?: UserId | undefined },
): Promise<AdminAuditEntry[]> {
  let query = db.selectFrom('admin_actions').selectAll();
  if (options.before !== undefined) query = query.where('id', '<', options.before);
  if (options.userId !== undefined) query = query.where('target_user_id', '=', options.userId);
  const rows = await query.orderBy('id', 'desc').limit(options.limit).execute();
  return rows.map(toEntry);
}

/** The oldest entries first, newer than `after` when given: the CSV export's pages, in the order it writes them. */
export async function pageAdminActionsForward(
  db: Kysely<Database>,
  options: { after?: number | undefined; limit: number },
): Promise<AdminAuditEntry[]> {
  let query = db.selectFrom('admin_actions').selectAll();
  if (options.after !== undefined) query = query.where('id', '>', options.after);
  const rows = await query.orderBy('id', 'asc').limit(options.limit).execute();
  return rows.map(toEntry);
}
