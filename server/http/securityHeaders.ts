import type { Middleware } from 'koa';
import type { AppState } from './context.ts';

/**
 * No inline scripts anywhere but those a page's CSP names by their hash (index.html's boot.js, added by
 * staticApp.ts per page: `ctx.state.scriptHashes`); never 'unsafe-inline'. Telegram's script and login widget and Google's
 * sign-in button are the only outside code. `frame-ancestors` lets Telegram's web clients embed the
 * Mini App and nobody else, which is why there is no `X-Frame-Options: DENY`.
 */
const imageSources = "img-src 'self' data: blob: https://t.me https://telegram.org https://*.googleusercontent.com";
const scriptSources = "script-src 'self' https://telegram.org https://accounts.google.com/gsi/client";
const contentSecurityPolicy = [
  "default-src 'self'",
  scriptSources,
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
 * The response types a browser may render as a document (and so run what the policy governs): our HTML and
 * SVG (an SVG opened on its own is a document that can hold scripts).
 */
const documentTypes = new Set(['text/html', 'image/svg+xml']);

/**
 * Which header goes on which response (issue 41: about 0.78 kB rode on every script, style, JSON and image):
 * - Everywhere: `X-Content-Type-Options: nosniff` (26 bytes; it acts on every type: a script or style
 *   served as something else is refused, and JSON is never sniffed into HTML), and HSTS (when https; a
 *   browser takes it from any response, an API client's first answer included).
 * - Documents only (HTML, SVG): the CSP (it governs the document's own fetches and scripts;
 *   `frame-ancestors` too acts only on a document being framed; a script, style, JSON or JPEG answer is
 *   not a document, and there is no worker script whose answer the CSP would govern); COOP (only a
 *   top-level document has a browsing context group); Permissions-Policy (features of a document and its
 *   frames); Referrer-Policy (on any other response it would only govern what that response itself
 *   fetches, a stylesheet's url()s, and ours equals the browsers' default, strict-origin-when-cross-origin).
 * `photoOrigin`: PHOTO_PUBLIC_URL's origin, where /api/uploads redirects photos; an <img> follows a redirect
 * only when the page's policy allows where it lands.
 */
export function securityHeaders(options: { https: boolean; photoOrigin?: string | null }): Middleware<AppState> {
  const policy = options.photoOrigin
    ? contentSecurityPolicy.replace(imageSources, `${imageSources} ${options.photoOrigin}`)
    : contentSecurityPolicy;
  const documentHeaders = {
    'Content-Security-Policy': policy,
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(self)',
  };
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (options.https) ctx.set('Strict-Transport-Security', strictTransportSecurity);
    try {
      await next();
    } finally {
      // After the handler, whose type decides (an error answer was already turned into JSON by then). A
      // header a handler set itself (a page's stricter Referrer-Policy) is kept.
      if (documentTypes.has(ctx.response.type)) {
        const hashes = ctx.state.scriptHashes ?? [];
        const headers =
          hashes.length > 0
            ? {
                ...documentHeaders,
                'Content-Security-Policy': policy.replace(scriptSources, `${scriptSources} ${hashes.join(' ')}`),
              }
            : documentHeaders;
        for (const [name, value] of Object.entries(headers)) if (!ctx.response.get(name)) ctx.set(name, value);
      }
    }
    // API answers are per user: never cache them in shared caches.
    if (ctx.path.startsWith('/api/') && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  };
}
