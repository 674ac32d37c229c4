import { translatorFor } from '../../../locales/index.ts';
import { searchQuery } from '../../contract/discovery.ts';
import { notFound } from '../../errors.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

export function searchRoutes(router: AppRouter, { search }: Services): void {
  router.get('/search', async (ctx) => {
    const auth = requireUser(ctx);
    const query = parse(searchQuery, ctx.query);
    const result = await search.next(auth.userId, query, auth.language);
    if (result === 'no_profile') {
      // The spec's flag: the app sends the user to /CreateProfile.
      ctx.body = { userprofile: false };
      return;
    }
    if (!result) throw notFound('no_more_profiles', 'No more profiles available, try changing search conditions');
    ctx.body = result;
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
      prompts: [],
      active_recently: null,
      verified: false,
    };
  });
}
