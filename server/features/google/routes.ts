import { sessionResponse } from '../../contract/accounts.ts';
import { googleLoginRequest } from '../../contract/googleAuth.ts';
import { languageFromAcceptLanguage } from '../../../locales/index.ts';
import type { AppRouter } from '../../http/context.ts';
import { cookieNames, setHttpOnlyCookie } from '../../http/sessionCookie.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { presentSignedInUser } from '../accounts/index.ts';
import { deviceOf } from '../sessions/index.ts';

export function googleAuthRoutes(router: AppRouter, services: Services): void {
  const { googleSignIn, sessions } = services;
  const names = cookieNames(services.cookies);

  /** Web sign-in with a Google ID token; keeps the CSRF check because it sets the session cookie. */
  router.post('/googlelogin', async (ctx) => {
    const input = parse(googleLoginRequest, ctx.request.body);
    // A new account speaks the language chosen in the app, else the browser's.
    const language = input.language ?? languageFromAcceptLanguage(ctx.get('Accept-Language'));
    const signedIn = await googleSignIn.signIn(input.id_token, language, deviceOf(ctx));
    if (signedIn.created) await services.referrals.recordSignUp(signedIn.userId, input.ref);
    if (ctx.state.auth?.via === 'cookie') await sessions.end(ctx.state.auth);
    const current_user = await presentSignedInUser(services.db, sessions, signedIn);
    if (input.session === 'token') {
      ctx.body = sessionResponse.parse({
        message: 'Login successful',
        user_id: signedIn.userId,
        token: signedIn.session.token,
        current_user,
      });
      return;
    }
    setHttpOnlyCookie(ctx, services.cookies, names.session, signedIn.session.sessionId, signedIn.session.expiresAt);
    ctx.body = sessionResponse.parse({ message: 'Login successful', user_id: signedIn.userId, current_user });
  });
}
