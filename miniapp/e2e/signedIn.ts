import type { BrowserContext } from 'playwright-core';
import { Browser } from '../../server/test/browser.ts';
import { codeFrom } from '../../server/test/smtpStandIn.ts';
import { standInInitData } from '../src/platform/telegramStandIn.ts';
import { contextLanguages, telegramAuthDate, type Site } from './harness.ts';

/** A verified account made through the real API (as a browser would), its cookie handed to a context. */
export async function signInVerified(site: Site, context: BrowserContext, email: string): Promise<void> {
  const client = new Browser(site.app.url);
  const registered = await client.post('/api/register', { email, password: 'spark2026!' });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const code = codeFrom(await site.app.smtp.lastMailTo(email));
  const verified = await client.post('/api/verify', { code });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status}`);
  await signInAs(site, context, client);
}

/**
 * Hands a signed-in test client's session cookie (a `createPerson` person's `browser`, say) to a browser
 * profile; the account takes the profile's language, as if chosen there (the account's language wins).
 */
export async function signInAs(
  site: Site,
  context: BrowserContext,
  client: Pick<Browser, 'cookie' | 'post'>,
): Promise<void> {
  const session = client.cookie('iskra_session');
  if (!session) throw new Error('no session cookie');
  const language = contextLanguages.get(context);
  if (language) {
    const chosen = await client.post('/api/language', { language });
    if (chosen.status !== 200) throw new Error(`language: ${chosen.status}`);
  }
  await context.addCookies([
    { name: 'iskra_session', value: session, url: site.app.url, httpOnly: true, sameSite: 'Lax' },
  ]);
}

/** A jwtToken for a fresh verified account: `POST /api/login {session: "token"}`. */
export async function tokenFor(site: Site, email: string): Promise<string> {
  const client = new Browser(site.app.url);
  await client.post('/api/register', { email, password: 'spark2026!' });
  const res = await client.post('/api/login', { email, password: 'spark2026!', session: 'token' });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error('no token');
  return body.token;
}

/** Init data signed as Telegram signs them (HMAC-SHA-256 under HMAC("WebAppData", bot token)). */
export function signInitData(
  botToken: string,
  user: Record<string, unknown>,
  authDate = telegramAuthDate(),
): Promise<string> {
  return standInInitData({ botToken, user, authDate, queryId: 'AAH-e2e', signature: 'ZTJlLXRlc3Qtc2lnbmF0dXJl' });
}
