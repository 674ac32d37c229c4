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
 *
 * `foldedPosts`: POST paths whose route checks the session in its own statement (a like: swipes/routes.ts),
 * where the database allows it (PostgreSQL, SessionService.checksInStatements). Their session is not read
 * here but deferred (`ctx.state.deferredSession`): the row is still read fresh, by the route's statement, one
 * round trip instead of two. A bearer token's signature is still checked here, so only a token of ours is
 * deferred; one whose session has ended is answered 401 by the route's statement, or by errorHandler when
 * the request is refused before that ran (as it was here before: csrf.ts).
 */
export function sessionLoader(
  sessions: SessionService,
  policy: CookiePolicy,
  foldedPosts: readonly string[] = [],
): Middleware<AppState> {
  const names = cookieNames(policy);
  const folded = new Set(foldedPosts);
  return async (ctx, next) => {
    ctx.state.auth = null;
    const read = (ctx.method === 'GET' || ctx.method === 'HEAD') && !sendingGets.has(ctx.path) ? 'cached' : 'fresh';
    const header = ctx.get('Authorization');
    // EventSource cannot set headers, so the event stream alone may carry the token in its URL.
    const queryToken = ctx.path === '/api/events' && typeof ctx.query.token === 'string' ? ctx.query.token : undefined;
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? queryToken;
    const defer = ctx.method === 'POST' && folded.has(ctx.path) && sessions.checksInStatements;
    const onAuth = (auth: SessionAuth | null) => {
      ctx.state.auth = auth;
      ctx.state.deferredSession = undefined;
    };
    if (bearer && defer) {
      const sessionId = await sessions.sessionIdOfToken(bearer);
      if (sessionId) ctx.state.deferredSession = sessions.defer(sessionId, 'bearer', onAuth);
      else ctx.state.endedBearer = await sessions.wasSignedIn(bearer);
    } else if (bearer) {
      ctx.state.auth = await sessions.resolveToken(bearer, read);
      // Only a request that may write needs to know (csrf.ts); a GET is answered 401 by requireUser anyway.
      if (!ctx.state.auth && read === 'fresh') ctx.state.endedBearer = await sessions.wasSignedIn(bearer);
    } else {
      const cookie = ctx.cookies.get(names.session);
      if (cookie && defer) ctx.state.deferredSession = sessions.defer(cookie, 'cookie', onAuth);
      else if (cookie) ctx.state.auth = await sessions.resolveSessionId(cookie, 'cookie', read);
    }
    await next();
  };
}

/**
 * The signed-in user of a request whose session may have been deferred (sessionLoader): a route of a folded
 * path that takes a way its statement cannot fold (a like with a message, say) reads the session here first.
 */
export async function requireUserNow(ctx: AppContext): Promise<SessionAuth> {
  await ctx.state.deferredSession?.resolve();
  return requireUser(ctx);
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
