/**
 * How Telegram signs the user data it hands out (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app,
 * https://core.telegram.org/widgets/login#checking-authorization): part of the Telegram contract the app and
 * the server share, because the server verifies exactly these signatures (features/telegram/signedData.ts
 * builds its check string here) and the app's dev mode (`?tgmock`) and the tests produce them. It lives in
 * server/contract so the app may import it (the app imports only contract and locales), and it uses Web
 * Crypto (`crypto.subtle`, in browsers and in Node 20 alike) because the same code runs in both.
 * Signing is for stand-ins only; the server's verifier keeps its own synchronous HMAC.
 */

/**
 * The data-check string both Telegram schemes sign: every field except `hash`, as `key=value` with the
 * decoded value, sorted by key (code-unit order, as Telegram's alphabetical ASCII keys sort), joined by a line feed.
 */
export function dataCheckString(fields: Iterable<readonly [string, string]>): string {
  return [...fields]
    .filter(([key]) => key !== 'hash')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}

const utf8 = new TextEncoder();

async function hmacSha256(key: Uint8Array<ArrayBuffer>, data: string): Promise<Uint8Array<ArrayBuffer>> {
  const imported = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', imported, utf8.encode(data)));
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Mini App init data as Telegram's clients pass them: the fields URL-encoded in the given order, plus
 * `hash` = HMAC-SHA-256 of the check string under HMAC-SHA-256(bot token, key "WebAppData").
 */
export async function signInitData(botToken: string, fields: Readonly<Record<string, string>>): Promise<string> {
  const secret = await hmacSha256(utf8.encode('WebAppData'), botToken);
  const params = new URLSearchParams(fields);
  params.set('hash', hex(await hmacSha256(secret, dataCheckString(Object.entries(fields)))));
  return params.toString();
}

/** The Login Widget's `hash`: HMAC-SHA-256 of the check string under the plain SHA-256 of the bot token. */
export async function signLoginWidget(botToken: string, fields: Readonly<Record<string, string>>): Promise<string> {
  const secret = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(botToken)));
  return hex(await hmacSha256(secret, dataCheckString(Object.entries(fields))));
}
