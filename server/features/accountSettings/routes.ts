import {
  addPasswordRequest,
  botLinkRequest,
  linkGoogleRequest,
  telegramLinkFields,
  changeEmailRequest,
  changePasswordRequest,
  confirmEmailRequest,
  endSessionRequest,
  unlinkRequest,
  type TelegramBotLinkResponse,
} from '../../contract/accounts.ts';
import { signedWidgetFields, telegramWidgetRequest } from '../../contract/telegramAuth.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

/** Menu → Account (AccountSettingsService). */
export function accountSettingsRoutes(
  router: AppRouter,
  { accountSettings, googleSignIn, telegramAuth, telegramBotLinks, sessions }: Services,
): void {
  // Every change below that ends sessions or changes what a session says waits for sessions.settle() (or
  // sessions.ended(), which also closes the ended sessions' event streams) before answering, so this process
  // no longer serves the old session from its cache once the answer is out (no process's writes ever do; the
  // other processes' reads follow their change notice, sessions/service.ts).
  router.get('/account', async (ctx) => {
    const auth = requireUser(ctx);
    ctx.body = await accountSettings.overview(auth.userId, auth.sessionHash);
  });

  router.post('/account/password', async (ctx) => {
    const auth = requireUser(ctx);
    const input = parse(changePasswordRequest, ctx.request.body);
    await accountSettings.changePassword(auth.userId, auth.sessionHash, input.current_password, input.password);
    await sessions.ended([auth.userId]);
    ctx.body = { message: 'Password changed' };
  });

  router.post('/account/email', async (ctx) => {
    const auth = requireUser(ctx);
    const input = parse(changeEmailRequest, ctx.request.body);
    await accountSettings.requestEmailChange(auth.userId, auth.sessionHash, input.email, input.current_password);
    ctx.body = { message: 'Verification code sent' };
  });

  router.post('/account/email/confirm', async (ctx) => {
    const auth = requireUser(ctx);
    const { code } = parse(confirmEmailRequest, ctx.request.body);
    const email = await accountSettings.confirmEmailChange(auth.userId, code);
    await sessions.settle();
    ctx.body = { message: 'Email changed', email };
  });

  router.post('/account/password/add', async (ctx) => {
    const auth = requireUser(ctx);
    const { password } = parse(addPasswordRequest, ctx.request.body);
    await accountSettings.addPassword(auth.userId, auth.sessionHash, password);
    ctx.body = { message: 'Password added' };
  });

  router.post('/account/google', async (ctx) => {
    const auth = requireUser(ctx);
    const { id_token, current_password } = parse(linkGoogleRequest, ctx.request.body);
    await googleSignIn.link(auth.userId, auth.sessionHash, id_token, current_password);
    ctx.body = { message: 'Google account linked' };
  });

  // The Login Widget's signed user object, as POST /api/auth takes it, for a web account adding Telegram.
  router.post('/account/telegram', async (ctx) => {
    const auth = requireUser(ctx);
    const { current_password } = parse(telegramLinkFields, ctx.request.body);
    const input = parse(telegramWidgetRequest, ctx.request.body);
    await telegramAuth.linkWithWidget(auth.userId, auth.sessionHash, signedWidgetFields(input), current_password);
    ctx.body = { message: 'Telegram account linked' };
  });

  // A POST: each call makes a new token (and ends the user's earlier unused one).
  router.post('/account/telegram/bot-link', async (ctx) => {
    const auth = requireUser(ctx);
    const { current_password } = parse(botLinkRequest, ctx.request.body ?? {});
    ctx.body = (await telegramBotLinks.issue(
      auth.userId,
      auth.sessionHash,
      current_password,
    )) satisfies TelegramBotLinkResponse;
  });

  router.post('/account/unlink', async (ctx) => {
    const auth = requireUser(ctx);
    const { method } = parse(unlinkRequest, ctx.request.body);
    await accountSettings.unlink(auth.userId, method);
    ctx.body = { message: 'Sign-in method removed' };
  });

  router.post('/account/sessions/end', async (ctx) => {
    const auth = requireUser(ctx);
    const { id } = parse(endSessionRequest, ctx.request.body);
    await accountSettings.endSession(auth.userId, id);
    await sessions.ended([auth.userId]);
    ctx.body = { message: 'Signed out' };
  });

  router.post('/account/sessions/end_others', async (ctx) => {
    const auth = requireUser(ctx);
    await accountSettings.endOtherSessions(auth.userId, auth.sessionHash);
    await sessions.ended([auth.userId]);
    ctx.body = { message: 'Signed out everywhere else' };
  });
}
