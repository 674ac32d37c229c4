import { sessionResponse } from '../../contract/accounts.ts';
import {
  signedWidgetFields,
  telegramInitDataRequest,
  telegramWidgetRequest,
  type TelegramTokenResponse,
} from '../../contract/telegramAuth.ts';
import type { AppRouter } from '../../http/context.ts';
import { cookieNames, setHttpOnlyCookie } from '../../http/sessionCookie.ts';
import { parse } from '../../http/validate.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { presentSignedInUser } from '../accounts/index.ts';
import { referralFromStartParam } from '../referrals/index.ts';
import { deviceOf } from '../sessions/index.ts';

/** Why launch data were refused, by the error's code: missing, malformed, stale or wrongly signed. */
const launchFailureReasons: Partial<Record<string, string>> = {
  invalid_input: 'missing',
  invalid_init_data: 'malformed',
  telegram_data_expired: 'stale',
  telegram_auth_failed: 'bad_signature',
};

/** The two paths of this feature that never use the session cookie, and so need no CSRF token. */
export const telegramCsrfExemptPaths = ['/api/auth/telegram'];

export function telegramAuthRoutes(router: AppRouter, services: Services): void {
  const { telegramAuth, sessions } = services;
  const names = cookieNames(services.cookies);

  /**
   * Mini App sign-in. Answers a jwtToken and never touches cookies: inside Telegram the app keeps the
   * token (spec section 4), so the route is CSRF-exempt (a forged request would only hand the forger
   * a token for their own, Telegram-signed account, in a response they cannot read).
   */
  router.post('/auth/telegram', async (ctx) => {
    let signedIn;
    try {
      const input = parse(telegramInitDataRequest, ctx.request.body);
      signedIn = await telegramAuth.signInWithInitData(input.initData, deviceOf(ctx));
      // A new account opened through an invitation (startapp=ref_<code>) counts for the inviter.
      if (signedIn.created)
        await services.referrals.recordSignUp(signedIn.userId, referralFromStartParam(signedIn.startParam));
    } catch (error) {
      // The Mini App shows a "reopen it" screen; the log says why, findable by the request id.
      const reason = error instanceof AppError ? launchFailureReasons[error.code] : undefined;
      if (reason) services.logger.warn({ reqId: ctx.state.requestId, reason }, 'Mini App launch data refused');
      throw error;
    }
    ctx.body = {
      token: signedIn.session.token,
      user_id: signedIn.userId,
      current_user: await presentSignedInUser(services.db, sessions, signedIn),
    } satisfies TelegramTokenResponse;
  });

  /**
   * Login Widget sign-in on the web site: a cookie session, so it keeps the CSRF check. Without it a
   * foreign page could post the attacker's own (validly signed) widget data and sign the victim's
   * browser into the attacker's account (login CSRF).
   */
  router.post('/auth', async (ctx) => {
    const input = parse(telegramWidgetRequest, ctx.request.body);
    const mode = input.session ?? 'cookie';
    const signedIn = await telegramAuth.signInWithWidget(signedWidgetFields(input), deviceOf(ctx), input.language);
    if (signedIn.created) await services.referrals.recordSignUp(signedIn.userId, input.ref);
    if (ctx.state.auth?.via === 'cookie') await sessions.end(ctx.state.auth);
    const current_user = await presentSignedInUser(services.db, sessions, signedIn);
    if (mode === 'token') {
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
