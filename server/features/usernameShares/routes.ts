import { profileIdBody } from '../../contract/discovery.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

export function usernameShareRoutes(router: AppRouter, { usernameShares }: Services): void {
  router.post('/share_username', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    ctx.body = await usernameShares.share(requireUser(ctx).userId, profile_id);
  });

  router.post('/share_username/revoke', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    ctx.body = await usernameShares.revoke(requireUser(ctx).userId, profile_id);
  });
}
