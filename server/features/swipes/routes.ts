import { likeBody, profileIdBody, profileIdQuery, undoBody } from '../../contract/discovery.ts';
import { requireUser, requireUserNow } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

/**
 * The POSTs whose session the like's own statement checks where the database allows it (sessionLoader in
 * server/http/auth.ts defers it; SwipeService.swipeInSession): a like or dislike without a message is then one
 * round trip. A like with a message reads the session first (requireUserNow), as every POST did.
 */
export const sessionCheckingPaths: readonly string[] = ['/api/like', '/api/dislike'];

export function swipeRoutes(router: AppRouter, { swipes }: Services): void {
  router.post('/like', async (ctx) => {
    const { profile_id, message } = parse(likeBody, ctx.request.body);
    const deferred = ctx.state.deferredSession;
    ctx.body =
      deferred && message === undefined
        ? await swipes.swipeInSession(deferred, profile_id, true)
        : await swipes.swipe((await requireUserNow(ctx)).userId, profile_id, true, message ?? null);
  });

  router.post('/undo', async (ctx) => {
    parse(undoBody, ctx.request.body);
    ctx.body = await swipes.undo(requireUser(ctx).userId);
  });

  router.post('/dislike', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    const deferred = ctx.state.deferredSession;
    ctx.body = deferred
      ? await swipes.swipeInSession(deferred, profile_id, false)
      : await swipes.swipe(requireUser(ctx).userId, profile_id, false);
  });

  router.get('/matches', async (ctx) => {
    ctx.body = await swipes.matches(requireUser(ctx).userId);
  });

  router.get('/likes', async (ctx) => {
    ctx.body = await swipes.likers(requireUser(ctx).userId);
  });

  router.get('/users_profile', async (ctx) => {
    const { profile_id } = parse(profileIdQuery, ctx.query);
    const auth = requireUser(ctx);
    ctx.body = await swipes.matchProfile(auth.userId, profile_id, auth.language);
  });

  router.get('/users_profile_liker', async (ctx) => {
    const { profile_id } = parse(profileIdQuery, ctx.query);
    const auth = requireUser(ctx);
    ctx.body = await swipes.likerProfile(auth.userId, profile_id, auth.language);
  });

  router.post('/unmatch', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    await swipes.unmatch(requireUser(ctx).userId, profile_id);
    ctx.body = { message: 'Unmatched' };
  });
}
