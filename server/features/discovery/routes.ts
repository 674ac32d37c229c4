import { translatorFor } from '../../../locales/index.ts';
import { profileIdBody, profileIdQuery, reportBody, searchQuery, settingsBody } from '../../contract/discovery.ts';
import { notFound } from '../../errors.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

export function discoveryRoutes(router: AppRouter, { discovery }: Services): void {
  router.get('/search', async (ctx) => {
    const auth = requireUser(ctx);
    const query = parse(searchQuery, ctx.query);
    const result = await discovery.next(auth.userId, query);
    if (result === 'no_profile') {
      // The spec's flag: the app sends the user to /CreateProfile.
      ctx.body = { userprofile: false };
      return;
    }
    if (!result) throw notFound('no_more_profiles', 'No more profiles available, try changing search conditions');
    ctx.body = result;
  });

  router.post('/like', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    ctx.body = await discovery.swipe(requireUser(ctx).userId, profile_id, true);
  });

  router.post('/dislike', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    ctx.body = await discovery.swipe(requireUser(ctx).userId, profile_id, false);
  });

  router.get('/matches', async (ctx) => {
    ctx.body = await discovery.matches(requireUser(ctx).userId);
  });

  router.get('/likes', async (ctx) => {
    ctx.body = await discovery.likers(requireUser(ctx).userId);
  });

  router.get('/users_profile', async (ctx) => {
    const { profile_id } = parse(profileIdQuery, ctx.query);
    ctx.body = await discovery.matchProfile(requireUser(ctx).userId, profile_id);
  });

  router.get('/users_profile_liker', async (ctx) => {
    const { profile_id } = parse(profileIdQuery, ctx.query);
    ctx.body = await discovery.likerProfile(requireUser(ctx).userId, profile_id);
  });

  router.post('/unmatch', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    await discovery.unmatch(requireUser(ctx).userId, profile_id);
    ctx.body = { message: 'Unmatched' };
  });

  router.post('/block', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    await discovery.block(requireUser(ctx).userId, profile_id);
    ctx.body = { message: 'Blocked' };
  });

  router.post('/report', async (ctx) => {
    const { profile_id, reason, comment } = parse(reportBody, ctx.request.body);
    await discovery.block(requireUser(ctx).userId, profile_id, { reason, comment: comment ?? '' });
    ctx.body = { message: 'Reported' };
  });

  router.get('/settings', async (ctx) => {
    ctx.body = await discovery.settings(requireUser(ctx).userId);
  });

  router.post('/settings', async (ctx) => {
    const changes = parse(settingsBody, ctx.request.body);
    ctx.body = await discovery.updateSettings(requireUser(ctx).userId, changes);
  });

  /** The tutorial's sample card: not a real person, in the caller's language. */
  router.get('/training', (ctx) => {
    const t = translatorFor(ctx.state.auth?.language ?? 'ru');
    ctx.body = {
      user_id: 0,
      profile_id: 0,
      name: t('training.name'),
      age: 25,
      city: t('training.city'),
      gender: 'Female',
      bio: t('training.bio'),
      distance: 1,
      photo: 'training.jpg',
    };
  });
}
