import type { Middleware } from 'koa';
import { unauthorized, forbidden } from '../errors.ts';
import type { SessionService } from '../features/sessions/service.ts';
import type { AppContext, AppState, SessionAuth } from './context.ts';
import { cookieNames, type CookiePolicy } from './sessionCookie.ts';

/** GETs the spec makes send something (a code by e-mail): a session ended elsewhere must not send it. */
const sendingGets = new Set(['/api/send_verification_code']);

/**
 * Finds the session of the request: a bearer jwtToken wins over the cookie, because a client that sends
 * a token has chosen it explicitly. An invalid credential simply means "not signed in". Only GET and HEAD
 * may be answered from the session cache: any other request may write, so it reads the session row itself
 * and never acts on a session that has ended, whichever process ended it (sessions/service.ts).
 */
export function sessionLoader(sessions: SessionService, policy: CookiePolicy): Middleware<AppState> {
  const names = cookieNames(policy);
  return async (ctx, next) => {
    ctx.state.auth = null;
    const read = (ctx.method === 'GET' || ctx.method === 'HEAD') && !sendingGets.has(ctx.path) ? 'cached' : 'fresh';
    const header = ctx.get('Authorization');
    // EventSource cannot set headers, so the event stream alone may carry the token in its URL.
    const queryToken = ctx.path === '/api/events' && typeof ctx.query.token === 'string' ? ctx.query.token : undefined;
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? queryToken;
    if (bearer) {
      ctx.state.auth = await sessions.resolveToken(bearer, read);
      // Only a request that may write needs to know (csrf.ts); a GET is answered 401 by requireUser anyway.
      if (!ctx.state.auth && read === 'fresh') ctx.state.endedBearer = await sessions.wasSignedIn(bearer);
    } else {
      const cookie = ctx.cookies.get(names.session);
      if (cookie) ctx.state.auth = await sessions.resolveSessionId(cookie, 'cookie', read);
    }
    await next();
  };
}

export function requireUser(ctx: AppContext): SessionAuth {
  const auth = ctx.state.auth;
  if (!auth) throw unauthorized();
  return auth;
}

export function requireVerifiedUser(ctx: AppContext): SessionAuth {
  const auth = requireUser(ctx);
  if (!auth.verified) throw forbidden('not_verified', 'Please verify your account first');
  return auth;
}
