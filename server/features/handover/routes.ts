import { sessionResponse } from '../../contract/accounts.ts';
import { handoverCodeRequest, type HandoverPreviewResponse, type HandoverResponse } from '../../contract/handover.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { cookieNames, setHttpOnlyCookie } from '../../http/sessionCookie.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { presentSignedInUser } from '../accounts/index.ts';
import { deviceOf } from '../sessions/index.ts';

/** The token page's one-time handover (SessionHandoverService). Every route is a POST and keeps the CSRF check. */
export function handoverRoutes(router: AppRouter, services: Services): void {
  const { handover, sessions } = services;
  const names = cookieNames(services.cookies);

  router.post('/session/handover', async (ctx) => {
    const auth = requireUser(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await handover.issue(auth.userId, auth.sessionHash)) satisfies HandoverResponse;
  });

  // A POST although it changes nothing: the code stays out of URLs, logs and caches.
  router.post('/session/handover/preview', async (ctx) => {
    const { code } = parse(handoverCodeRequest, ctx.request.body);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await handover.preview(code)) satisfies HandoverPreviewResponse;
  });

  /** Starts a cookie session, as a sign-in does: this browser's earlier session ends. */
  router.post('/session/handover/redeem', async (ctx) => {
    const { code } = parse(handoverCodeRequest, ctx.request.body);
    const signedIn = await handover.redeem(code, deviceOf(ctx));
    if (ctx.state.auth?.via === 'cookie') await sessions.end(ctx.state.auth);
    const current_user = await presentSignedInUser(services.db, sessions, signedIn);
    setHttpOnlyCookie(ctx, services.cookies, names.session, signedIn.session.sessionId, signedIn.session.expiresAt);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = sessionResponse.parse({ message: 'Login successful', user_id: signedIn.userId, current_user });
  });
}
