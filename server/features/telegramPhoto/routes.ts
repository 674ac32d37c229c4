import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import type { Services } from '../../services.ts';

export function telegramPhotoRoutes(router: AppRouter, { telegramPhoto }: Services): void {
  /** The caller's own Telegram profile photo as a JPEG for the wizard's cropper; reads only, changes nothing. */
  router.get('/telegram/profile_photo', async (ctx) => {
    const photo = await telegramPhoto.ownPhoto(requireUser(ctx).userId);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'image/jpeg';
    ctx.body = photo;
  });
}
