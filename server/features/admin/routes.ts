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
 * Everything under /api/admin answers exactly as an unknown route does (404 `not_found`, whatever the
 * method) unless the caller is an admin: the console's existence is not confirmed to members or visitors.
 * Runs before the router, so a wrong method is a 404 too rather than a telling 405.
 */
export function adminGate(access: AdminAccess): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path === adminPrefix || ctx.path.startsWith(`${adminPrefix}/`)) {
      const actor = await access.actorOf(ctx.state.auth?.userId);
      if (!actor) throw notFound();
      ctx.state.admin = actor;
    }
    await next();
  };
}

function adminOf(ctx: AppContext): AdminActor {
  // adminGate set it for every path these routes answer; a route reached without it is a wiring mistake.
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
    ctx.body = { reports: await moderation.reports() };
  });
  router.post('/admin/reports/:id/resolve', async (ctx) => {
    const { id } = parse(adminIdParams, ctx.params);
    const { action, reason } = parse(resolveReportRequest, ctx.request.body);
    await admin.resolveReport(id, action, adminOf(ctx), reason ?? '');
    ctx.body = done;
  });

  router.get('/admin/verifications', async (ctx) => {
    ctx.body = { verifications: await moderation.verifications() };
  });
  router.get('/admin/verifications/:id/selfie', async (ctx) => {
    const { id } = parse(adminIdParams, ctx.params);
    const file = await moderation.selfie(id);
    // A face: never cached by a browser or a proxy, never shown beyond the console.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'image/jpeg';
    if (file.size !== undefined) ctx.length = file.size;
    ctx.body = file.body;
  });
  router.post('/admin/verifications/:id/resolve', async (ctx) => {
    const { id } = parse(adminIdParams, ctx.params);
    const { action, reason } = parse(resolveVerificationRequest, ctx.request.body);
    await moderation.resolveVerification(id, action, adminOf(ctx), reason ?? '');
    ctx.body = done;
  });

  router.get('/admin/photos', async (ctx) => {
    ctx.body = { photos: await moderation.heldPhotos() };
  });
  router.post('/admin/photos/:id/resolve', async (ctx) => {
    const { id } = parse(adminIdParams, ctx.params);
    const { action, reason } = parse(resolvePhotoRequest, ctx.request.body);
    await moderation.resolvePhoto(id, action, adminOf(ctx), reason ?? '');
    ctx.body = done;
  });

  router.get('/admin/people', async (ctx) => {
    const { q } = parse(peopleQuery, ctx.query);
    ctx.body = { people: await moderation.lookup(q) };
  });
  const userParams = (ctx: AppContext) => parse(adminUserParams, ctx.params).id;
  router.post('/admin/people/:id/ban', async (ctx) => {
    const { reason } = parse(accountActionRequest, ctx.request.body);
    const changed = await admin.ban(userParams(ctx), adminOf(ctx), reason ?? '');
    ctx.body = { changed };
  });
  router.post('/admin/people/:id/unban', async (ctx) => {
    const { reason } = parse(accountActionRequest, ctx.request.body);
    const id = userParams(ctx);
    await moderation.person(id); // 404 for no such account; unban alone cannot tell
    const changed = await admin.unban(id, adminOf(ctx), reason ?? '');
    ctx.body = { changed };
  });
  router.post('/admin/people/:id/grant', async (ctx) => {
    const { days, reason } = parse(grantRequest, ctx.request.body);
    const premium_until = await admin.grantPremium(userParams(ctx), days, adminOf(ctx), reason ?? '');
    ctx.body = { premium_until };
  });
  router.post('/admin/payments/:id/refund', async (ctx) => {
    const { id } = parse(adminIdParams, ctx.params);
    const { reason } = parse(refundRequest, ctx.request.body);
    const refunded = await admin.refund(id, adminOf(ctx), reason ?? '');
    ctx.body = { user_id: refunded.userId, premium_until: refunded.premiumUntil };
  });

  router.get('/admin/audit', async (ctx) => {
    const { before, limit, format } = parse(auditQuery, ctx.query);
    if (format === 'csv') return sendAuditCsv(ctx, moderation);
    ctx.body = await moderation.audit({ before, limit });
  });
  router.get('/admin/audit.csv', (ctx) => sendAuditCsv(ctx, moderation));

  router.get('/admin/stats', async (ctx) => {
    const { days } = parse(statsQuery, ctx.query);
    ctx.body = await moderation.dailyStats(Number(days ?? '30'));
  });
}

function sendAuditCsv(ctx: AppContext, moderation: Services['moderation']): void {
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Content-Disposition', 'attachment; filename="iskra-audit.csv"');
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = Readable.from(moderation.auditCsv());
}
