import { Readable } from 'node:stream';
import type { Middleware } from 'koa';
import {
  accountActionRequest,
  adminIdParams,
  adminUserParams,
  auditQuery,
  grantRequest,
  peopleQuery,
  refundRequest,
  resolvePhotoRequest,
  resolveReportRequest,
  resolveVerificationRequest,
  statsQuery,
  type AdminDone,
  type GrantAnswer,
  type RefundAnswer,
  type AdminMe,
} from '../../contract/admin.ts';
import { notFound } from '../../errors.ts';
import type { AppContext, AppRouter, AppState } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import type { AdminAccess } from './adminAccess.ts';
import type { AdminActor } from './auditLog.ts';

const adminPrefix = '/api/admin';
const done: AdminDone = { done: true };

/**
 * The path as the console's gate compares it: percent-decoded (until stable, so `%2541` is caught too),
 * lower-cased, with runs of `/` collapsed. @koa/router matches routes without case and with an optional
 * trailing `/` against the raw path; this form is a superset of every spelling it would route to
 * /api/admin, so no spelling reaches a console route without passing the gate.
 */
export function gatePathOf(path: string): string {
  let decoded = path;
  for (let i = 0; i < 5; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      break; // A malformed escape: the router does not decode it either.
    }
    if (next === decoded) break;
    decoded = next;
  }
  return decoded.toLowerCase().replace(/\/{2,}/g, '/');
}

/**
 * Everything under /api/admin answers exactly as an unknown route does (404 `not_found`, whatever the
 * method) unless the caller is an admin: the console's existence is not confirmed to members or visitors.
 * Runs before the router, so a wrong method is a 404 too rather than a telling 405. Any path whose
 * normalised form starts with /api/admin is gated (also /api/administrators: an unknown route, 404 anyway).
 */
export function adminGate(access: AdminAccess): Middleware<AppState> {
  return async (ctx, next) => {
    if (gatePathOf(ctx.path).startsWith(adminPrefix)) {
      const actor = await access.actorOf(ctx.state.auth?.userId);
      if (!actor) throw notFound();
      ctx.state.admin = actor;
    }
    await next();
  };
}

function adminOf(ctx: AppContext): AdminActor {
  // adminGate sets it for every path these routes answer; every handler still asks (defence in depth), so a
  // spelling of a path the gate missed, or a route mounted elsewhere, answers the unknown route's 404.
  const admin = ctx.state.admin as AdminActor | undefined;
  if (!admin) throw notFound();
  return admin;
}

/** The moderation console's API (server/contract/admin.ts): thin handlers over ModerationConsole and AdminService. */
export function adminRoutes(router: AppRouter, { moderation, admin }: Services): void {
  router.get('/admin/me', (ctx) => {
    const body: AdminMe = { admin: true, name: adminOf(ctx) };
    ctx.body = body;
  });

  router.get('/admin/reports', async (ctx) => {
    adminOf(ctx);
    ctx.body = { reports: await moderation.reports() };
  });
  router.post('/admin/reports/:id/resolve', async (ctx) => {
    const by = adminOf(ctx);
    const { id } = parse(adminIdParams, ctx.params);
    const { action, reason } = parse(resolveReportRequest, ctx.request.body);
    await admin.resolveReport(id, action, by, reason ?? '');
    ctx.body = done;
  });

  router.get('/admin/verifications', async (ctx) => {
    adminOf(ctx);
    ctx.body = { verifications: await moderation.verifications() };
  });
  router.get('/admin/verifications/:id/selfie', async (ctx) => {
    const by = adminOf(ctx);
    const { id } = parse(adminIdParams, ctx.params);
    const file = await moderation.selfie(id, by);
    // A face: never cached by a browser or a proxy, never shown beyond the console.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'image/jpeg';
    if (file.size !== undefined) ctx.length = file.size;
    ctx.body = file.body;
  });
  router.post('/admin/verifications/:id/resolve', async (ctx) => {
    const by = adminOf(ctx);
    const { id } = parse(adminIdParams, ctx.params);
    const { action, reason } = parse(resolveVerificationRequest, ctx.request.body);
    await moderation.resolveVerification(id, action, by, reason ?? '');
    ctx.body = done;
  });

  router.get('/admin/photos', async (ctx) => {
    adminOf(ctx);
    ctx.body = { photos: await moderation.heldPhotos() };
  });
  router.post('/admin/photos/:id/resolve', async (ctx) => {
    const by = adminOf(ctx);
    const { id } = parse(adminIdParams, ctx.params);
    const { action, reason } = parse(resolvePhotoRequest, ctx.request.body);
    await moderation.resolvePhoto(id, action, by, reason ?? '');
    ctx.body = done;
  });

  router.get('/admin/people', async (ctx) => {
    const by = adminOf(ctx);
    const { q } = parse(peopleQuery, ctx.query);
    ctx.body = { people: await moderation.lookup(q, by) };
  });
  const userParams = (ctx: AppContext) => parse(adminUserParams, ctx.params).id;
  router.post('/admin/people/:id/ban', async (ctx) => {
    const by = adminOf(ctx);
    const { reason } = parse(accountActionRequest, ctx.request.body);
    const changed = await admin.ban(userParams(ctx), by, reason ?? '');
    ctx.body = { changed };
  });
  router.post('/admin/people/:id/unban', async (ctx) => {
    const by = adminOf(ctx);
    const { reason } = parse(accountActionRequest, ctx.request.body);
    const id = userParams(ctx);
    await moderation.person(id); // 404 for no such account; unban alone cannot tell
    const changed = await admin.unban(id, by, reason ?? '');
    ctx.body = { changed };
  });
  router.post('/admin/people/:id/grant', async (ctx) => {
    const by = adminOf(ctx);
    const { days, reason } = parse(grantRequest, ctx.request.body);
    const body: GrantAnswer = { premium_until: await admin.grantPremium(userParams(ctx), days, by, reason ?? '') };
    ctx.body = body;
  });
  router.post('/admin/payments/:id/refund', async (ctx) => {
    const by = adminOf(ctx);
    const { id } = parse(adminIdParams, ctx.params);
    const { reason } = parse(refundRequest, ctx.request.body);
    const refunded = await admin.refund(id, by, reason ?? '');
    const body: RefundAnswer = { user_id: refunded.userId, premium_until: refunded.premiumUntil };
    ctx.body = body;
  });

  router.get('/admin/audit', async (ctx) => {
    adminOf(ctx);
    const { before, limit, format } = parse(auditQuery, ctx.query);
    if (format === 'csv') return sendAuditCsv(ctx, moderation);
    ctx.body = await moderation.audit({ before, limit });
  });
  router.get('/admin/audit.csv', (ctx) => {
    adminOf(ctx);
    sendAuditCsv(ctx, moderation);
  });

  router.get('/admin/stats', async (ctx) => {
    adminOf(ctx);
    const { days } = parse(statsQuery, ctx.query);
    ctx.body = await moderation.dailyStats(Number(days ?? '30'));
  });
}

/** Streamed a page of the database at a time (ModerationConsole.auditCsv): the log is never whole in memory. */
function sendAuditCsv(ctx: AppContext, moderation: Services['moderation']): void {
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Content-Disposition', 'attachment; filename="iskra-audit.csv"');
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = Readable.from(moderation.auditCsv());
}
