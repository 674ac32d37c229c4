import { checkSignedFields, webAppSecret } from './signedData.ts';
import { webAppUser, type TelegramIdentity } from './telegramIdentity.ts';

export interface ValidInitData {
  user: TelegramIdentity;
  authDate: Date;
  queryId?: string | undefined;
  /** The `startapp` deep-link parameter, when the Mini App was opened through one. */
  startParam?: string | undefined;
}

export type InitDataResult =
  { ok: true; data: ValidInitData } | { ok: false; reason: 'malformed' | 'bad_signature' | 'stale' };

/**
 * Validates `Telegram.WebApp.initData` as Telegram specifies
 * (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
 * HMAC-SHA256 of the data-check string under HMAC-SHA256("WebAppData", bot token). The `signature`
 * field (Telegram's Ed25519 signature for third parties) is an ordinary field here and stays in the check.
 * The user object is only parsed once the signature holds. `now: null` turns the age check off.
 */
export function validateInitData(raw: string, botToken: string, now: Date | null): InitDataResult {
  const fields = new Map<string, string>();
  // URLSearchParams decodes exactly as Telegram encodes (percent-encoding; `+` in values arrives as %2B).
  for (const [key, value] of new URLSearchParams(raw)) {
    // A repeated key would make the checked string ambiguous: refuse rather than pick one.
    if (fields.has(key)) return { ok: false, reason: 'malformed' };
    fields.set(key, value);
  }
  const hash = fields.get('hash');
  const authDate = fields.get('auth_date');
  if (!hash || !/^[0-9a-fA-F]{64}$/.test(hash) || !authDate || !/^\d{1,12}$/.test(authDate) || !fields.has('user')) {
    return { ok: false, reason: 'malformed' };
  }
  const check = checkSignedFields(fields, hash, webAppSecret(botToken), Number(authDate), now);
  if (check !== 'ok') return { ok: false, reason: check };

  let userJson: unknown;
  try {
    userJson = JSON.parse(fields.get('user') ?? '');
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const user = webAppUser.safeParse(userJson);
  if (!user.success) return { ok: false, reason: 'malformed' };
  return {
    ok: true,
    data: {
      user: {
        id: user.data.id,
        username: user.data.username,
        languageCode: user.data.language_code,
        allowsWriteToPm: user.data.allows_write_to_pm,
      },
      authDate: new Date(Number(authDate) * 1000),
      queryId: fields.get('query_id'),
      startParam: fields.get('start_param'),
    },
  };
}
