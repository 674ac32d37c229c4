import { checkSignedFields, loginWidgetSecret, type SignatureCheck } from './signedData.ts';
import type { TelegramIdentity } from './telegramIdentity.ts';

export type WidgetResult = { ok: true; user: TelegramIdentity } | { ok: false; reason: Exclude<SignatureCheck, 'ok'> };

/**
 * Validates the Telegram Login Widget's user object
 * (https://core.telegram.org/widgets/login#checking-authorization): HMAC-SHA256 of the data-check string
 * under SHA-256(bot token), with the same freshness rule as init data. Every field Telegram sent counts,
 * with numbers written as Telegram wrote them.
 */
export function validateLoginWidget(
  payload: Readonly<Record<string, string | number>>,
  botToken: string,
  now: Date | null,
): WidgetResult {
  const fields = new Map(Object.entries(payload).map(([key, value]) => [key, String(value)]));
  const check = checkSignedFields(
    fields,
    String(payload.hash),
    loginWidgetSecret(botToken),
    Number(payload.auth_date),
    now,
  );
  if (check !== 'ok') return { ok: false, reason: check };
  const username = payload.username;
  return { ok: true, user: { id: Number(payload.id), username: typeof username === 'string' ? username : undefined } };
}
