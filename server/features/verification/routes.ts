import { verifyRequest } from '../../contract/accounts.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

export function verificationRoutes(router: AppRouter, { verification, csrf, sessions }: Services): void {
  // A GET by the spec, yet it sends mail: a cross-site page must not be able to fire it.
  router.get('/send_verification_code', async (ctx) => {
    const auth = requireUser(ctx);
    csrf.assertSameOrigin(ctx);
    await verification.sendCode(auth.userId);
    ctx.body = { message: 'Verification code sent' };
  });

  router.post('/verify', async (ctx) => {
    const auth = requireUser(ctx);
    const { code } = parse(verifyRequest, ctx.request.body);
    const outcome = await verification.verify(auth.userId, code, ctx.ip);
    // This process's next request of this user sees the account verified (its session cache dropped it), as
    // do every process's writes; the other processes' reads follow when their listeners hear it.
    await sessions.settle();
    ctx.body = { message: outcome === 'verified' ? 'Account verified successfully' : 'Account already verified' };
  });
}
