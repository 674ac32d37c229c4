import { signInitData as signInitDataFields, signLoginWidget } from '../contract/telegramSignedData.ts';

/** A bot token of the right shape for tests; the stand-in Bot API accepts it. */
export const testBotToken = '123456789:AAtest-token-for-iskra-tests_000000000';

export interface TestTelegramUser {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/**
 * Init data as Telegram's clients produce it (URL-encoded pairs, the user as JSON), signed with the
 * WebAppData scheme. `extra` adds fields (query_id, start_param, signature) before signing.
 */
export function signInitData(
  user: TestTelegramUser,
  authDate: Date,
  options: { botToken?: string; extra?: Record<string, string> } = {},
): Promise<string> {
  return signInitDataFields(options.botToken ?? testBotToken, {
    auth_date: String(Math.floor(authDate.getTime() / 1000)),
    user: JSON.stringify(user),
    ...options.extra,
  });
}

/** The Login Widget's user object, signed with SHA-256(bot token) as Telegram does. */
export async function signWidgetPayload(
  user: { id: number; first_name?: string; username?: string; photo_url?: string },
  authDate: Date,
  botToken = testBotToken,
): Promise<Record<string, string | number>> {
  const payload: Record<string, string | number> = { ...user, auth_date: Math.floor(authDate.getTime() / 1000) };
  const fields = Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)]));
  return { ...payload, hash: await signLoginWidget(botToken, fields) };
}
