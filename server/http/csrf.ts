import { createHmac, randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import { forbidden, unauthorized } from '../errors.ts';
import { safeEqual } from '../safeEqual.ts';
import type { AppContext, AppState } from './context.ts';
import { cookieNames, setHttpOnlyCookie, type CookiePolicy } from './sessionCookie.ts';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface CsrfOptions extends CookiePolicy {
  secret: string;
  /** The site's own origin (PUBLIC_URL); the request's own host is also accepted. */
  publicOrigin: string;
}

/** Paths that never use the cookie (webhooks, token sign-in) and so need no CSRF token; each route folder declares its own. */
export interface CsrfExemptions {
  paths: readonly string[];
  prefixes: readonly string[];
}

/**
 * Signed double-submit: an httpOnly random cookie, and a header token that is its HMAC under the server
 * secret. A foreign page can neither read the cookie nor compute the token; a cookie planted by a sibling
 * site is useless without the secret. Requests that authenticate with a valid bearer token are not
 * cookie-authenticated and skip it; a bearer header that resolves to no session proves nothing and does not
 * (else any `Authorization: Bearer x` would open /api/login and /api/register to login CSRF). A token of
 * ours whose session has ended is answered 401 here instead, before any route: refused just the same. On
 * the POSTs whose route checks the session in its own statement (a like, a dislike on PostgreSQL: auth.ts
 * sessionLoader), a token of ours skips it unread and an ended session is answered 401 by that statement,
 * or by errorHandler when the request is refused before it.
 */
export class Csrf {
  private readonly names;

  constructor(private readonly options: CsrfOptions) {
    this.names = cookieNames(options);
  }

  /** `GET /api/csrf_token`: reuses the browser's CSRF cookie or sets one, and returns the matching token. */
  issue(ctx: AppContext): string {
    let seed = ctx.cookies.get(this.names.csrf);
    if (!seed || !/^[\w-]{43}$/.test(seed)) {
      seed = randomBytes(32).toString('base64url');
      setHttpOnlyCookie(ctx, this.options, this.names.csrf, seed);
    }
    return this.tokenFor(seed);
  }

  middleware(exemptions: CsrfExemptions): Middleware<AppState> {
    const paths = new Set(exemptions.paths);
    return async (ctx, next) => {
      const exempt = paths.has(ctx.path) || exemptions.prefixes.some((p) => ctx.path.startsWith(p));
      if (unsafeMethods.has(ctx.method) && !exempt && !authenticatedByBearer(ctx)) {
        // A token client whose session ended is told it is signed out (the app then goes to sign-in), not
        // that a CSRF token is missing: it never used one. Refused either way, so this opens nothing.
        if (ctx.state.endedBearer) throw unauthorized();
        this.assertSameOrigin(ctx);
        this.assertToken(ctx);
      }
      await next();
    };
  }

  /** For the few GETs with a side effect (sending a mail): a cross-site page must not trigger them. */
  assertSameOrigin(ctx: AppContext): void {
    const origin = ctx.get('Origin');
    // Not `ctx.origin`: in Koa 3 that can echo the Origin header itself.
    const own = `${ctx.protocol}://${ctx.host}`;
    if (origin && origin !== this.options.publicOrigin && origin !== own) {
      throw forbidden('foreign_origin', 'Cross-site request refused');
    }
    if (!origin && ctx.get('Sec-Fetch-Site') === 'cross-site') {
      throw forbidden('foreign_origin', 'Cross-site request refused');
    }
  }

  private assertToken(ctx: AppContext): void {
    const seed = ctx.cookies.get(this.names.csrf);
    const given = ctx.get('X-CSRF-Token');
    if (!seed || !given || !safeEqual(given, this.tokenFor(seed))) {
      throw forbidden('csrf_failed', 'Missing or invalid CSRF token');
    }
  }

  private tokenFor(seed: string): string {
    return createHmac('sha256', `csrf:${this.options.secret}`).update(seed).digest('base64url');
  }
}

/**
 * Decided by the session loader, which runs first: the bearer token resolved to a live session, or a token of
 * ours whose session the route's statement checks (deferred): refused there with 401 if it has ended, and
 * never sent by a browser on its own, so no CSRF token is owed either way.
 */
function authenticatedByBearer(ctx: AppContext): boolean {
  return ctx.state.auth?.via === 'bearer' || ctx.state.deferredSession?.via === 'bearer';
}
