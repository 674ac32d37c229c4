import { referralRequest } from '../../contract/referrals.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

export function referralRoutes(router: AppRouter, { referrals }: Services): void {
  /** A POST although it mostly reads: the first call makes the account's code. */
  router.post('/referral', async (ctx) => {
    parse(referralRequest, ctx.request.body);
    ctx.body = await referrals.invitation(requireUser(ctx).userId);
  });
}
