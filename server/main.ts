import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createApp } from './app.ts';
import { EnvError, loadEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { createLogMailer, createSmtpMailer } from './mail/mailer.ts';

/** Built by `npm run build` (and by `npm start` when missing or stale, see scripts/ensure-frontend.ts). */
const frontendDist = path.resolve(import.meta.dirname, '../miniapp/dist');

/** The only place that builds real things: environment, database, mail, HTTP server. */
async function main(): Promise<void> {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const { db, dialect, description } = openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  const applied = await migrateToLatest(db);
  logger.info({ database: description, migrationsApplied: applied.length }, 'database ready');

  const mailer = env.SMTP_URL ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM) : createLogMailer(logger);
  const app = createApp({
    db,
    dialect,
    logger,
    mailer,
    publicUrl: env.PUBLIC_URL,
    sessionSecret: env.SESSION_SECRET,
    trustProxy: env.TRUST_PROXY,
    frontendDist: existsSync(frontendDist) ? frontendDist : undefined,
    publicConfig: {
      google_client_id: env.GOOGLE_CLIENT_ID ?? null,
      bot_username: env.BOT_USERNAME ?? null,
      support_email: env.SUPPORT_EMAIL ?? null,
      support_telegram: env.SUPPORT_TELEGRAM ?? null,
      legal_name: env.LEGAL_NAME ?? null,
      legal_inn: env.LEGAL_INN ?? null,
      legal_ogrnip: env.LEGAL_OGRNIP ?? null,
    },
  });
  if (!existsSync(frontendDist)) logger.warn({ frontendDist }, 'no built front end: serving the API only (npm run build)');

  const server = app.listen(env.PORT, env.HOST);
  await once(server, 'listening');
  logger.info({ url: env.PUBLIC_URL, port: env.PORT }, 'Iskra is listening');

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      void db.destroy().then(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
