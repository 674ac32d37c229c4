import { languageRequest, loginRequest, registerRequest, type SessionResponse } from '../../contract/accounts.ts';
import { languageFromAcceptLanguage } from '../../../locales/index.ts';
import type { AppRouter } from '../../http/context.ts';
import { clearCookie, cookieNames } from '../../http/sessionCookie.ts';
import { requireUser } from '../../http/auth.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { deviceOf } from '../sessions/index.ts';
import { presentCurrentUser, presentSignedInUser } from './currentUser.ts';
import { startWebSession } from './webSignIn.ts';

export function accountRoutes(router: AppRouter, services: Services): void {
  const { accounts, verification, sessions, csrf, logger } = services;
  const names = cookieNames(services.cookies);

  router.get('/csrf_token', (ctx) => {
    ctx.body = { csrf_token: csrf.issue(ctx) };
  });

  router.post('/register', async (ctx) => {
    const input = parse(registerRequest, ctx.request.body);
    // The language chosen in the app (the landing's switch) wins over the browser's.
    const language = input.language ?? languageFromAcceptLanguage(ctx.get('Accept-Language'));
    const signedIn = await accounts.register(input.email, input.password, language, deviceOf(ctx));
    await services.referrals.recordSignUp(signedIn.userId, input.ref);
    const extra = await startWebSession(ctx, services, signedIn, 'cookie');
    // The account is complete without the mail: if sending fails, the user asks for a new code on /verify.
    await verification.sendCode(signedIn.userId).catch((error: unknown) => {
      logger.warn({ err: error, userId: signedIn.userId }, 'registration: first verification code not sent');
    });
    ctx.status = 201;
    ctx.body = {
      message: 'Registration successful',
      user_id: signedIn.userId,
      ...extra,
      current_user: await presentSignedInUser(services.db, sessions, signedIn),
    } satisfies SessionResponse;
  });

  router.post('/login', async (ctx) => {
    const input = parse(loginRequest, ctx.request.body);
    const signedIn = await accounts.login(input.email, input.password, {
      device: deviceOf(ctx),
      deviceCookie: ctx.cookies.get(names.device),
    });
    const extra = await startWebSession(ctx, services, signedIn, input.session);
    ctx.body = {
      message: 'Login successful',
      user_id: signedIn.userId,
      ...extra,
      current_user: await presentSignedInUser(services.db, sessions, signedIn),
    } satisfies SessionResponse;
  });

  router.post('/logout', async (ctx) => {
    if (ctx.state.auth) await sessions.end(ctx.state.auth);
    ctx.state.auth = null;
    clearCookie(ctx, services.cookies, names.session);
    ctx.body = { message: 'Logged out' };
  });

  router.get('/current_user', async (ctx) => {
    ctx.body = await presentCurrentUser(services.db, ctx.state.auth);
  });

  /** The app's language switch: stored on the account, so the other devices and the bot follow. */
  router.post('/language', async (ctx) => {
    const { language } = parse(languageRequest, ctx.request.body);
    const { userId } = requireUser(ctx);
    await accounts.setLanguage(userId, language);
    // This tab's next GET here reads the new language, not a cached copy its change notice has yet to reach;
    // other devices follow within the notice's delivery (a few ms), so no settle for a language.
    sessions.forgetUser(userId);
    ctx.body = { language };
  });
}
