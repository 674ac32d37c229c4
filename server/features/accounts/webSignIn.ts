import type { AppContext } from '../../http/context.ts';
import type { Clock } from '../../clock.ts';
import { cookieNames, setHttpOnlyCookie, type CookiePolicy } from '../../http/sessionCookie.ts';
import type { SessionService } from '../sessions/index.ts';
import { deviceCookieDays } from './loginDevices.ts';
import type { SignedInWithPassword } from './service.ts';

/**
 * Web sign-in with the password (login, registration, a password reset): replace any older cookie session
 * of this browser, then set the new one; the browser is now known for this address (device cookie, see
 * loginDevices.ts), whichever kind of session it took. Answers the token when the client keeps it itself.
 */
export async function startWebSession(
  ctx: AppContext,
  // Spelled out rather than Pick<Services, …>: the accounts face re-exports this, and services.ts imports
  // nearly every face, so a type import of services.ts here would close a circle through it.
  services: { sessions: Pick<SessionService, 'end'>; cookies: CookiePolicy; clock: Clock },
  signedIn: SignedInWithPassword,
  mode: 'cookie' | 'token',
): Promise<{ token?: string }> {
  const names = cookieNames(services.cookies);
  if (ctx.state.auth?.via === 'cookie') await services.sessions.end(ctx.state.auth);
  setHttpOnlyCookie(
    ctx,
    services.cookies,
    names.device,
    signedIn.deviceCookie,
    new Date(services.clock.now().getTime() + deviceCookieDays * 86_400_000),
  );
  if (mode === 'cookie') {
    setHttpOnlyCookie(ctx, services.cookies, names.session, signedIn.session.sessionId, signedIn.session.expiresAt);
    return {};
  }
  return { token: signedIn.session.token };
}
