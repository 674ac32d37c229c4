import { forgotPasswordRequest, resetPasswordRequest, type SessionResponse } from '../../contract/accounts.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { presentSignedInUser, startWebSession } from '../accounts/index.ts';
import { deviceOf } from '../sessions/index.ts';

export function passwordResetRoutes(router: AppRouter, services: Services): void {
  const { passwordReset } = services;

  // One answer for every address, registered or not (see PasswordResetService.forgot).
  router.post('/password/forgot', async (ctx) => {
    const { email } = parse(forgotPasswordRequest, ctx.request.body);
    await passwordReset.forgot(email, ctx.ip);
    ctx.body = { message: 'If this address belongs to an account, a code has been sent to it' };
  });

  router.post('/password/reset', async (ctx) => {
    const input = parse(resetPasswordRequest, ctx.request.body);
    const proof = input.token === undefined ? { code: input.code ?? '' } : { token: input.token };
    const signedIn = await passwordReset.reset(input.email, proof, input.password, deviceOf(ctx));
    // Every other session just ended: refused by every write at once and by this process's reads before this
    // answer is out; the other processes' reads follow when their listeners hear it (sessions/service.ts).
    await services.sessions.ended([signedIn.userId]);
    const extra = await startWebSession(ctx, services, signedIn, input.session);
    ctx.body = {
      message: 'Password changed',
      user_id: signedIn.userId,
      ...extra,
      current_user: await presentSignedInUser(services.db, services.sessions, signedIn),
    } satisfies SessionResponse;
  });
}
