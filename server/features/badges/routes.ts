import { likesSeenBody, matchMarkBody } from '../../contract/badges.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

/** `GET /api/badges` and the marks that lower the counts (server/contract/badges.ts). */
export function badgeRoutes(router: AppRouter, { badges }: Services): void {
  router.get('/badges', async (ctx) => {
    ctx.body = await badges.counts(requireUser(ctx).userId);
  });

  router.post('/matches/seen', async (ctx) => {
    const { profile_id } = parse(matchMarkBody, ctx.request.body);
    await badges.matchSeen(requireUser(ctx).userId, profile_id);
    ctx.body = { ok: true };
  });

  router.post('/matches/opened', async (ctx) => {
    const { profile_id } = parse(matchMarkBody, ctx.request.body);
    await badges.matchOpened(requireUser(ctx).userId, profile_id);
    ctx.body = { ok: true };
  });

  router.post('/likes/seen', async (ctx) => {
    parse(likesSeenBody, ctx.request.body);
    await badges.likesSeen(requireUser(ctx).userId);
    ctx.body = { ok: true };
  });
}
