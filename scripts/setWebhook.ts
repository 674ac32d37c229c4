/**
 * `npm run bot:set-webhook` registers `PUBLIC_URL/telegram/webhook` with Telegram, with the secret the
 * server checks, and sets the bot's commands and menu button. Run it where the server's environment is
 * (the same BOT_TOKEN, PUBLIC_URL and SESSION_SECRET or DATA_DIR), then start the server with
 * BOT_MODE=webhook. `npm run bot:set-webhook -- --delete` removes the webhook (back to polling).
 */
import { Api } from 'grammy';
import { allowedUpdates } from '../bot/updates.ts';
import { configureBot } from '../bot/setup.ts';
import { webhookPath, webhookSecret } from '../bot/webhook.ts';
import { EnvError, loadEnv } from '../server/env.ts';

async function main(): Promise<void> {
  const env = loadEnv();
  if (!env.BOT_TOKEN) throw new Error('BOT_TOKEN is not set');
  const api = new Api(env.BOT_TOKEN, { apiRoot: env.TELEGRAM_API_ROOT });
  if (process.argv.includes('--delete')) {
    await api.deleteWebhook();
    console.log('Webhook deleted');
    return;
  }
  if (!env.PUBLIC_URL.startsWith('https://')) throw new Error('PUBLIC_URL must be https for a Telegram webhook');
  const url = new URL(webhookPath, env.PUBLIC_URL).toString();
  await api.setWebhook(url, {
    secret_token: webhookSecret(env.BOT_TOKEN, env.SESSION_SECRET),
    allowed_updates: [...allowedUpdates],
  });
  await configureBot(api, env.PUBLIC_URL);
  console.log(`Webhook set to ${url}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError || error instanceof Error ? error.message : error);
  process.exit(1);
});
