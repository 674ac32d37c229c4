import { profileIdBody, reportBody } from '../../contract/discovery.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

export function safetyRoutes(router: AppRouter, { safety }: Services): void {
  router.post('/block', async (ctx) => {
    const { profile_id } = parse(profileIdBody, ctx.request.body);
    await safety.block(requireUser(ctx).userId, profile_id);
    ctx.body = { message: 'Blocked' };
  });

  router.post('/report', async (ctx) => {
    const { profile_id, reason, comment } = parse(reportBody, ctx.request.body);
    await safety.block(requireUser(ctx).userId, profile_id, { reason, comment: comment ?? '' });
    ctx.body = { message: 'Reported' };
  });
}
