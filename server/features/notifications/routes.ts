import type { AppRouter } from '../../http/context.ts';
import { notFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { unsubscribePathPrefix } from './emails.ts';

/** The unsubscribe link's path inside the /api router. */
const unsubscribePath = `${unsubscribePathPrefix.slice('/api'.length)}:token`;

/** The token never expires and needs no sign-in: the request log keeps the path without it. */
const loggedPath = `${unsubscribePathPrefix}[redacted]`;

const invalidLink = () => notFound('unsubscribe_link_invalid', 'This unsubscribe link is not valid');

/** Mail clients POST the one-click unsubscribe without a session or CSRF token (RFC 8058): the link's token is the proof. */
export const unsubscribeCsrfExemptPrefix = unsubscribePathPrefix;

export function emailUnsubscribeRoutes(router: AppRouter, { emailUnsubscribe }: Services): void {
  // Shows a button; changes nothing (link scanners and previews fetch links).
  router.get(unsubscribePath, async (ctx) => {
    ctx.state.logPath = loggedPath;
    const page = await emailUnsubscribe.confirmPage(ctx.params.token ?? '');
    if (!page) throw invalidLink();
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.body = page.html;
  });

  // The body (`List-Unsubscribe=One-Click`) is not needed: the POST to this address is the request.
  router.post(unsubscribePath, async (ctx) => {
    ctx.state.logPath = loggedPath;
    const page = await emailUnsubscribe.unsubscribe(ctx.params.token ?? '');
    if (!page) throw invalidLink();
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.body = page.html;
  });
}
