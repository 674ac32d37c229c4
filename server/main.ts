import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { launchBot } from '../bot/launch.ts';
import { createTelegramNotifier } from '../bot/notifier.ts';
import { NotificationWorker } from './features/notifications/worker.ts';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createApp } from './app.ts';
import { answerClientErrorsInJson } from './http/clientErrors.ts';
import { PostgresEventBus } from './features/events/eventBus.ts';
import { EnvError, loadEnv } from './env.ts';
import { systemClock } from './clock.ts';
import { createLogger } from './logger.ts';
import { TelegramUserService } from './features/telegram/telegramUsers.ts';
import { createLogMailer, createSmtpMailer } from './mail/mailer.ts';
import { jobContextFor } from './features/jobs/jobContext.ts';
import { jobs } from './features/jobs/jobs.ts';
import { yookassaFromEnv } from './features/premium/yookassaSetup.ts';
import { PremiumService } from './features/premium/service.ts';
import { starsApiFor } from './features/premium/stars.ts';
import { startScheduler } from './features/jobs/scheduler.ts';
import { AdminService } from './features/admin/adminService.ts';
import { adminMessenger, parseAdminIds, reportAlerter } from '../bot/admins.ts';

/** Built by `npm run build` (and by `npm start` when missing or stale, see scripts/ensure-frontend.ts). */
const frontendDist = path.resolve(import.meta.dirname, '../miniapp/dist');

/** The only place that builds real things: environment, database, mail, HTTP server. */
async function main(): Promise<void> {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const handle = openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  const { db, dialect, description, schema } = handle;
  const applied = await migrateToLatest(db, schema);
  logger.info({ database: description, migrationsApplied: applied.length }, 'database ready');

  // Several processes on one PostgreSQL database tell each other of new events through LISTEN/NOTIFY.
  const eventBus = dialect === 'postgres' && env.DATABASE_URL ? await PostgresEventBus.start(env.DATABASE_URL, schema ?? 'public', logger) : undefined;
  const mailer = env.SMTP_URL ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM) : createLogMailer(logger);
  const adminIds = parseAdminIds(env.ADMIN_TELEGRAM_IDS);
  const admin = new AdminService(db, systemClock);
  const bot = launchBot({
    botToken: env.BOT_TOKEN,
    mode: env.BOT_MODE,
    apiRoot: env.TELEGRAM_API_ROOT,
    publicUrl: env.PUBLIC_URL,
    sessionSecret: env.SESSION_SECRET,
    users: new TelegramUserService(db, systemClock),
    logger,
    admins: { ids: adminIds, service: admin },
    // The bot settles Stars purchases on the same data the app's payments write.
    stars: new PremiumService(db, dialect, systemClock, env.SESSION_SECRET, env.PAYMENT_PROVIDER === 'test', { logger }),
  });
  // Bot notifications leave through a queue drained here, never inside a request.
  const notifications = bot.api ? new NotificationWorker(db, createTelegramNotifier(bot.api, env.PUBLIC_URL), systemClock, logger) : undefined;
  const stopping = new AbortController();
  const app = createApp({
    db,
    dialect,
    databaseProbe: handle.probe,
    logger,
    mailer,
    uploadsDir: path.join(env.DATA_DIR, 'uploads'),
    publicUrl: env.PUBLIC_URL,
    sessionSecret: env.SESSION_SECRET,
    trustedProxyHops: env.TRUST_PROXY_HOPS,
    testPaymentProvider: env.PAYMENT_PROVIDER === 'test',
    yookassa: yookassaFromEnv(env),
    stars: bot.api ? starsApiFor(bot.api) : undefined,
    adminTelegramIds: adminIds,
    ...(eventBus ? { eventBus } : {}),
    botToken: env.BOT_TOKEN,
    google: env.GOOGLE_CLIENT_ID ? { clientId: env.GOOGLE_CLIENT_ID, jwksUrl: env.GOOGLE_JWKS_URL } : undefined,
    telegramWebhook: bot.webhook,
    ...(notifications ? { notificationsQueued: () => void notifications.kick() } : {}),
    ...(bot.api && adminIds.length > 0 ? { reportFiled: reportAlerter(adminMessenger(bot.api, adminIds, db, logger), admin, logger) } : {}),
    frontendDist: existsSync(frontendDist) ? frontendDist : undefined,
    botStatus: () => bot.status(),
    shutdownSignal: stopping.signal,
    publicConfig: {
      google_client_id: env.GOOGLE_CLIENT_ID ?? null,
      bot_username: env.BOT_USERNAME ?? null,
      telegram_bot_id: env.BOT_TOKEN ? Number(env.BOT_TOKEN.split(':')[0]) || null : null,
      support_email: env.SUPPORT_EMAIL ?? null,
      support_telegram: env.SUPPORT_TELEGRAM ?? null,
      legal_name: env.LEGAL_NAME ?? null,
      legal_inn: env.LEGAL_INN ?? null,
      legal_ogrnip: env.LEGAL_OGRNIP ?? null,
    },
  });
  if (env.PAYMENT_PROVIDER === 'off') {
    logger.warn('web payments are off: POST /api/payment answers payments_unavailable (PAYMENT_PROVIDER=yookassa takes payments; unset on an https PUBLIC_URL means off)');
  } else if (env.PAYMENT_PROVIDER === 'test' && env.PUBLIC_URL.startsWith('https:')) {
    logger.warn('PAYMENT_PROVIDER=test on a public site: the test checkout grants premium without any payment');
  }
  if (!existsSync(frontendDist)) logger.warn({ frontendDist }, 'no built front end: serving the API only (npm run build)');

  const server = app.listen(env.PORT, env.HOST);
  answerClientErrorsInJson(server);
  await once(server, 'listening');
  logger.info({ url: env.PUBLIC_URL, port: env.PORT }, 'Iskra is listening');
  bot.startPolling();
  notifications?.start();
  // CRON=off for extra processes that should only serve requests (the job locks make it optional).
  const scheduler =
    env.CRON === 'on' ? startScheduler(jobs, jobContextFor(handle, env, logger, bot.api)) : undefined;
  if (!scheduler) logger.info('CRON=off: scheduled jobs do not run in this process');

  // Stop taking requests, let those in flight finish (event streams are cut: clients reconnect elsewhere),
  // let a running job finish, then close the database; forced after 10 s.
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      void Promise.all([bot.stop(), notifications?.stop(), scheduler?.stop()])
        .catch(() => undefined)
        .then(() => Promise.all([db.destroy(), eventBus?.close()]))
        .then(() => {
          logger.info('stopped cleanly');
          process.exit(0);
        });
    });
    stopping.abort();
    server.closeIdleConnections();
    setTimeout(() => {
      logger.warn('shutdown took over 10 s: exiting anyway');
      process.exit(1);
    }, 10_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
