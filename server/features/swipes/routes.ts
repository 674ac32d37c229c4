import { likeBody, profileIdBody, profileIdQuery, undoBody } from '../../contract/discovery.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

export function swipeRoutes(router: AppRouter, { swipes }: Services): void {
  router.post('/like', async (ctx) => {
    const { profile_id, message } = parse(likeBody, ctx.request.body);
    ctx.body = await swipes.swipe(requireUser(ctx).userId, profile_id, true, message ?? null);
  });

  router.post('/undo', async (ctx) => {
    parse(undoBody, ctx.request.body);
    ctx.body = await swipes.undo(requireUser(ctx).userId);
  });

  router.post('/dislike', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    ctx.body = await swipes.swipe(requireUser(ctx).userId, profile_id, false);
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
