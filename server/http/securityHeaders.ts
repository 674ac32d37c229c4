import type { Middleware } from 'koa';

/**
 * No inline scripts anywhere (the React build has none). Telegram's script and login widget and Google's
 * sign-in button are the only outside code. `frame-ancestors` lets Telegram's web clients embed the
 * Mini App and nobody else, which is why there is no `X-Frame-Options: DENY`.
 */
const imageSources = "img-src 'self' data: blob: https://t.me https://telegram.org https://*.googleusercontent.com";
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' https://telegram.org https://accounts.google.com/gsi/client",
  "style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style",
  imageSources,
  // oauth.telegram.org: the login script asks there for the result when the popup closes without a message.
  "connect-src 'self' https://accounts.google.com/gsi/ https://oauth.telegram.org",
  // 'self': /offer and /privacy-policy show the static documents in a full-page frame (spec section 2).
  "frame-src 'self' https://oauth.telegram.org https://accounts.google.com/gsi/",
  "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/**
 * HSTS: once a browser has seen the site over https it never again tries plain http for a year, so the
 * first request of a visit cannot be stripped to http on a hostile network. Sent only when PUBLIC_URL is
 * https (TLS usually ends at a proxy in front, so the request itself cannot tell); a local http setup must
 * not tell browsers to insist on https for localhost.
 */
const strictTransportSecurity = 'max-age=31536000; includeSubDomains';

/**
 * `photoOrigin`: PHOTO_PUBLIC_URL's origin, where /api/uploads redirects photos; an <img> follows a redirect
 * only when the policy allows where it lands.
 */
export function securityHeaders(options: { https: boolean; photoOrigin?: string | null }): Middleware {
  const policy = options.photoOrigin ? contentSecurityPolicy.replace(imageSources, `${imageSources} ${options.photoOrigin}`) : contentSecurityPolicy;
  return async (ctx, next) => {
    ctx.set({
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=(self)',
    });
    if (options.https) ctx.set('Strict-Transport-Security', strictTransportSecurity);
    await next();
    // API answers are per user: never cache them in shared caches.
    if (ctx.path.startsWith('/api/') && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  };
}
