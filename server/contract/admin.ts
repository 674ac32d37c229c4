import { z } from 'zod/mini';
import { rowId, userRowId } from './ids.ts';

/**
 * The moderation console's API (issue 40), under `/api/admin/`: it answers 404, exactly like an unknown
 * route, to everyone who is not an admin (a verified e-mail in ADMIN_EMAILS, or a Telegram id in
 * ADMIN_TELEGRAM_IDS), so its existence is not even confirmed to members. Plain TypeScript interfaces for the
 * answers (only the console reads them); zod schemas for every input.
 */

/** Who acted, as the audit log records it: `email:<address>`, `telegram:<id>`, or `cli`. */
export type AdminName = string;

/** `GET /api/admin/me`: the caller is an admin (everyone else gets the 404). */
export interface AdminMe {
  admin: true;
  name: AdminName;
}

export const adminRecordId = rowId('id');
export const adminIdParams = z.object({ id: adminRecordId });
export const adminUserParams = z.object({ id: userRowId('id') });

/** A reason an admin may give for a decision, kept in the audit log. */
const adminReason = z.optional(z.string().check(z.maxLength(500, 'reason is at most 500 characters')));

export const reportActions = ['dismiss', 'hold', 'ban'] as const;
export const resolveReportRequest = z.strictObject({
  action: z.enum(reportActions, 'action must be dismiss, hold or ban'),
  reason: adminReason,
  csrf_token: z.optional(z.string()),
});
export type ResolveReportRequest = z.infer<typeof resolveReportRequest>;

export const verificationActions = ['approve', 'reject'] as const;
export const resolveVerificationRequest = z.strictObject({
  action: z.enum(verificationActions, 'action must be approve or reject'),
  reason: adminReason,
  csrf_token: z.optional(z.string()),
});
export type ResolveVerificationRequest = z.infer<typeof resolveVerificationRequest>;

export const photoActions = ['approve', 'remove'] as const;
export const resolvePhotoRequest = z.strictObject({
  action: z.enum(photoActions, 'action must be approve or remove'),
  reason: adminReason,
  csrf_token: z.optional(z.string()),
});
export type ResolvePhotoRequest = z.infer<typeof resolvePhotoRequest>;

/** Ban or unban an account from the lookup. */
export const accountActionRequest = z.strictObject({
  reason: adminReason,
  csrf_token: z.optional(z.string()),
});
export type AccountActionRequest = z.infer<typeof accountActionRequest>;

export const grantRequest = z.strictObject({
  days: z.coerce
    .number()
    .check(
      z.int('days must be a whole number'),
      z.gte(1, 'days must be 1 to 3660'),
      z.lte(3660, 'days must be 1 to 3660'),
    ),
  reason: adminReason,
  csrf_token: z.optional(z.string()),
});
export type GrantRequest = z.infer<typeof grantRequest>;

export const refundRequest = z.strictObject({
  reason: adminReason,
  csrf_token: z.optional(z.string()),
});

/**
 * The answers of the two decisions whose shape the console reads back (schemas, so the app checks the very
 * shape the server declares): a grant's new end of premium, and a refund's account with the premium left
 * (null when the refund ended it).
 */
export const grantAnswer = z.object({ premium_until: z.string() });
export type GrantAnswer = z.infer<typeof grantAnswer>;
export const refundAnswer = z.object({ user_id: z.number(), premium_until: z.nullable(z.string()) });
export type RefundAnswer = z.infer<typeof refundAnswer>;

export const peopleQuery = z.object({
  q: z.string().check(z.trim(), z.minLength(1, 'q is required'), z.maxLength(320, 'q is too long')),
});

export const auditQuery = z.object({
  /** Entries older than this id (the previous page's last); the newest first when absent. */
  before: z.optional(rowId('before')),
  limit: z.optional(
    z.coerce.number().check(z.int(), z.gte(1, 'limit must be 1 to 200'), z.lte(200, 'limit must be 1 to 200')),
  ),
  format: z.optional(z.enum(['json', 'csv'], 'format must be json or csv')),
});

export const statsDays = [7, 30, 90] as const;
export const statsQuery = z.object({
  days: z.optional(z.enum(['7', '30', '90'], 'days must be 7, 30 or 90')),
});

export interface AdminPhoto {
  id: number;
  url: string;
  moderation: 'clear' | 'held';
  screen_score: number | null;
}

export interface AdminPersonCard {
  user_id: number;
  profile_id: number | null;
  name: string | null;
  age: number | null;
  city: string | null;
  bio: string | null;
  verified: boolean;
  banned: boolean;
  held: boolean;
  photos: AdminPhoto[];
}

export interface AdminMessage {
  from_profile_id: number;
  content: string;
  created_at: string;
}

export interface AdminReport {
  id: number;
  reason: string;
  comment: string;
  created_at: string;
  evidence: string;
  weight: number;
  score: number;
  reporters: number;
  reporter: { user_id: number; profile_id: number; name: string };
  reported: AdminPersonCard;
  /** The last messages between the two, oldest first; empty when they never chatted. */
  messages: AdminMessage[];
}

export interface AdminVerification {
  id: number;
  created_at: string;
  pose_id: string;
  similarity: number | null;
  pose_ok: boolean | null;
  faces: number | null;
  reason: string | null;
  /** The selfie, served to admins only (`GET /api/admin/verifications/:id/selfie`); null once deleted. */
  selfie_url: string | null;
  person: AdminPersonCard;
}

export interface AdminHeldPhoto {
  id: number;
  url: string;
  screen_score: number | null;
  created_at: string;
  owner: AdminPersonCard;
}

export interface AdminAuditEntry {
  id: number;
  admin: AdminName;
  action: string;
  target_user_id: number | null;
  target_profile_id: number | null;
  reason: string;
  details: Record<string, unknown>;
  created_at: string;
}

export interface AdminAuditPage {
  entries: AdminAuditEntry[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_before: number | null;
}

/** What the lookup shows of one account, as the CLI would. */
export interface AdminPerson {
  user_id: number;
  email: string | null;
  email_verified: boolean;
  telegram_id: string | null;
  telegram_username: string | null;
  created_at: string;
  banned_at: string | null;
  premium_until: string | null;
  sessions: number;
  card: AdminPersonCard;
  reports_against: { id: number; reason: string; comment: string; created_at: string; resolution: string | null }[];
  reports_by: { id: number; reason: string; created_at: string; resolution: string | null }[];
  payments: {
    id: number;
    provider: string;
    amount: number;
    currency: string;
    status: string;
    created_at: string;
    credited_at: string | null;
  }[];
  /** What admins did to this account (holds, bans, grants, refunds, verifications), newest first. */
  actions: AdminAuditEntry[];
}

export interface AdminStatsDay {
  day: string;
  sign_ups: number;
  active: number;
  matches: number;
  messages: number;
  payments: number;
}

export interface AdminStats {
  days: number;
  series: AdminStatsDay[];
}

export interface AdminDone {
  done: true;
}
