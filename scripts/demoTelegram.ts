import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { signInitData } from '../server/contract/telegramSignedData.ts';

/**
 * `npm run demo`'s Mini App link: the app on localhost as Telegram opens it, for a newcomer without a bot.
 * A bot token is made up for this run only (never stored), the demo account gets a Telegram id, and the
 * link carries launch parameters signed with that token exactly as Telegram signs them, plus Telegram's
 * dark theme. With a real BOT_TOKEN none of this exists: only Telegram can then sign launch data.
 */

/** The demo account scripts/seed-demo.ts makes. */
export const demoEmail = 'demo@iskra.local';

/** The demo account's Telegram identity: an id beyond any Telegram has handed out so far. */
export const demoTelegramUser = {
  id: 9_990_000_001,
  first_name: 'Демо',
  username: 'iskra_demo',
  language_code: 'ru',
  allows_write_to_pm: true,
};

/** Telegram Desktop's night theme, the colours the app takes inside Telegram. */
export const demoTelegramTheme = {
  bg_color: '#17212b',
  secondary_bg_color: '#232e3c',
  text_color: '#f5f5f5',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
  header_bg_color: '#17212b',
  accent_text_color: '#6ab3f3',
  section_bg_color: '#17212b',
  section_header_text_color: '#6ab3f3',
  subtitle_text_color: '#708499',
  destructive_text_color: '#ec3942',
};

/** A token of a bot token's shape (`<id>:<35 characters>`), random for each run. */
export function demoBotToken(): string {
  return `${randomInt(100_000_000, 999_999_999)}:${randomBytes(27).toString('base64url').slice(0, 35)}`;
}

/** The address that opens the app as Telegram would, signed in as `user` once the server checks `botToken`. */
export async function demoTelegramLink(
  publicUrl: string,
  botToken: string,
  user: Record<string, unknown> = demoTelegramUser,
  now = new Date(),
): Promise<string> {
  const tgWebAppData = await signInitData(botToken, {
    auth_date: String(Math.floor(now.getTime() / 1000)),
    query_id: `AAH-iskra-demo-${randomBytes(4).toString('hex')}`,
    // Bot API 8.0's Ed25519 field for third parties: the SDK expects it; our server checks the hash.
    signature: randomBytes(48).toString('base64url'),
    user: JSON.stringify(user),
  });
  const params = new URLSearchParams({
    tgWebAppData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'tdesktop',
    tgWebAppThemeParams: JSON.stringify(demoTelegramTheme),
  });
  return `${new URL('/', publicUrl).toString()}#${params.toString()}`;
}

export interface DemoTelegram {
  botToken: string;
  link: string;
}

/**
 * When BOT_TOKEN is unset: the run's made-up token and the link, the demo account (`demoEmail`) reachable
 * by the demo Telegram id. Null when a real token is set, or when the demo account does not exist.
 */
export async function prepareDemoTelegram(
  db: Kysely<Database>,
  options: { botToken: string | undefined; publicUrl: string; demoEmail: string },
): Promise<DemoTelegram | null> {
  if (options.botToken !== undefined) return null;
  const account = await db
    .selectFrom('users')
    .select(['id', 'telegram_id'])
    .where('email', '=', options.demoEmail)
    .executeTakeFirst();
  if (!account) return null;
  const telegramId = String(demoTelegramUser.id);
  if (account.telegram_id !== telegramId) {
    // Only if the id is still free (a demo database never has it elsewhere; a real one keeps its own).
    const holder = await db.selectFrom('users').select('id').where('telegram_id', '=', telegramId).executeTakeFirst();
    if (holder || account.telegram_id !== null) return null;
    await db
      .updateTable('users')
      .set({ telegram_id: telegramId, telegram_username: demoTelegramUser.username })
      .where('id', '=', account.id)
      .execute();
  }
  const botToken = demoBotToken();
  return { botToken, link: await demoTelegramLink(options.publicUrl, botToken) };
}

/** What `npm run demo` prints about the link. */
export function demoTelegramText(demo: DemoTelegram): string {
  return `\n  Try the Mini App as inside Telegram (signed in as the demo account, Telegram's dark theme):\n  ${demo.link}\n`;
}
