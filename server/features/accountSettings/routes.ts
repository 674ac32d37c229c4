import { changeEmailRequest, changePasswordRequest, confirmEmailRequest, endSessionRequest } from '../../contract/accounts.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

/** Menu → Account (AccountSettingsService). */
export function accountSettingsRoutes(router: AppRouter, { accountSettings }: Services): void {
  router.get('/account', async (ctx) => {
    const auth = requireUser(ctx);
    ctx.body = await accountSettings.overview(auth.userId, auth.sessionHash);
  });

  router.post('/account/password', async (ctx) => {
    const auth = requireUser(ctx);
    const input = parse(changePasswordRequest, ctx.request.body);
    await accountSettings.changePassword(auth.userId, auth.sessionHash, input.current_password, input.password);
    ctx.body = { message: 'Password changed' };
  });

  router.post('/account/email', async (ctx) => {
    const auth = requireUser(ctx);
    const input = parse(changeEmailRequest, ctx.request.body);
    await accountSettings.requestEmailChange(auth.userId, input.email, input.current_password);
    ctx.body = { message: 'Verification code sent' };
  });

  router.post('/account/email/confirm', async (ctx) => {
    const auth = requireUser(ctx);
    const { code } = parse(confirmEmailRequest, ctx.request.body);
    const email = await accountSettings.confirmEmailChange(auth.userId, code);
    ctx.body = { message: 'Email changed', email };
  });

  router.post('/account/sessions/end', async (ctx) => {
    const auth = requireUser(ctx);
    const { id } = parse(endSessionRequest, ctx.request.body);
    await accountSettings.endSession(auth.userId, id);
    ctx.body = { message: 'Signed out' };
  });

  router.post('/account/sessions/end_others', async (ctx) => {
    const auth = requireUser(ctx);
    await accountSettings.endOtherSessions(auth.userId, auth.sessionHash);
    ctx.body = { message: 'Signed out everywhere else' };
  });
}
