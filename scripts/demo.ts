/**
 * `npm run demo`, after the front end is built and the demo data seeded: the server, and (when BOT_TOKEN
 * is unset) a link that opens the Mini App on localhost as Telegram would (scripts/demoTelegram.ts). The
 * made-up bot token only checks that link's launch data; the bot itself stays off.
 */
import { openDatabase, toolLockWaitMs } from '../db/client.ts';
import { parseEnv } from '../server/env.ts';
import { demoEmail, demoTelegramText, prepareDemoTelegram } from './demoTelegram.ts';

const env = parseEnv(process.env);
const { db } = openDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  searchPath: env.DATABASE_SCHEMA,
  lockWaitMs: toolLockWaitMs,
});
const demo = await prepareDemoTelegram(db, { botToken: env.BOT_TOKEN, publicUrl: env.PUBLIC_URL, demoEmail }).finally(
  () => db.destroy(),
);
if (demo) {
  process.env.BOT_TOKEN = demo.botToken;
  process.env.BOT_MODE = 'off';
}
await import('../server/main.ts');
if (demo) process.stdout.write(demoTelegramText(demo));
