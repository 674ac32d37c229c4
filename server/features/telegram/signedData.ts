import { createHash, createHmac } from 'node:crypto';
import { dataCheckString } from '../../contract/telegramSignedData.ts';
import { safeEqual } from '../../safeEqual.ts';

/** Telegram's freshness rule for signed user data: at most a day old, and not from the future. */
export const maxAgeSeconds = 24 * 60 * 60;
/** Clocks drift: a minute of grace for an auth_date slightly ahead of ours. */
export const maxFutureSeconds = 60;

export type SignatureCheck = 'ok' | 'bad_signature' | 'stale';

/** Mini App init data: the secret key is HMAC-SHA256 of the bot token under the key "WebAppData". */
export function webAppSecret(botToken: string): Buffer {
  return createHmac('sha256', 'WebAppData').update(botToken).digest();
}

/** Login Widget: the secret key is the plain SHA-256 of the bot token. */
export function loginWidgetSecret(botToken: string): Buffer {
  return createHash('sha256').update(botToken).digest();
}

function signFields(fields: ReadonlyMap<string, string>, secret: Buffer): string {
  return createHmac('sha256', secret).update(dataCheckString(fields)).digest('hex');
}

/**
 * Checks the hash in constant time, then the age. `now: null` skips the age check (only for judging
 * Telegram's published, long-expired example).
 */
export function checkSignedFields(
  fields: ReadonlyMap<string, string>,
  hash: string,
  secret: Buffer,
  authDateSeconds: number,
  now: Date | null,
): SignatureCheck {
  if (!safeEqual(signFields(fields, secret), hash.toLowerCase())) return 'bad_signature';
  if (now === null) return 'ok';
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (nowSeconds - authDateSeconds > maxAgeSeconds) return 'stale';
  if (authDateSeconds - nowSeconds > maxFutureSeconds) return 'stale';
  return 'ok';
}
