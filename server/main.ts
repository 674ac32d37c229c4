import { once } from 'node:events';
import type { Api } from 'grammy';
import { adminMessenger, reportAlerter } from '../bot/admins.ts';
import { launchBot, type BotStatus } from '../bot/launch.ts';
import { createTelegramNotifier } from '../bot/notifier.ts';
import { openDatabase, toolLockWaitMs } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createApp } from './app.ts';
import { frontendDist, servicesFromEnv } from './composition.ts';
import { EnvError, loadEnv } from './env.ts';
import { PostgresEventBus } from './features/events/eventBus.ts';
import { jobContextFor } from './features/jobs/jobContext.ts';
import { jobs } from './features/jobs/jobs.ts';
import { startScheduler } from './features/jobs/scheduler.ts';
import { NotificationWorker, type EmailChannel } from './features/notifications/worker.ts';
import { starsApiOnceLaunched } from './features/premium/stars.ts';
import { answerClientErrorsInJson } from './http/clientErrors.ts';
import { createLogger } from './logger.ts';

/**
 * The composition root: the only place that builds real things (environment, database, mail, the bot, the
 * HTTP server) and every service, once (composition.ts), handed to the app, the bot and the jobs alike.
 */
async function main(): Promise<void> {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  // Migrations run before anything is served, so they may wait for a lock as long as the CLIs do (a job or
  // an admin command holding the SQLite file must not make a restart fail); serving then uses the short budget.
  const migrating = openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, lockWaitMs: toolLockWaitMs });
  const applied = await migrateToLatest(migrating.db, migrating.schema).finally(() => migrating.db.destroy());
  const handle = openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  const { db, dialect, description, schema } = handle;
  logger.info({ database: description, migrationsApplied: applied.length }, 'database ready');

  // Several processes on one PostgreSQL database tell each other of new events through LISTEN/NOTIFY.
  const eventBus = dialect === 'postgres' && env.DATABASE_URL ? await PostgresEventBus.start(env.DATABASE_URL, schema ?? 'public', logger) : undefined;
  const stopping = new AbortController();
  // The bot needs the services (accounts, Stars settlement, admin tools) and some services need the bot's
  // client (Stars invoices, report alerts): the services reach the bot through `launched`,
  // filled in once the bot exists, a few lines below.
  const launched: { api?: Api; status?: () => Promise<BotStatus>; reportAlert?: (reportId: number) => void } = {};
  const botRuns = env.BOT_TOKEN !== undefined && env.BOT_MODE !== 'off';
  const { deps, services } = servicesFromEnv(env, handle, logger, {
    ...(eventBus ? { eventBus } : {}),
    stars: botRuns ? starsApiOnceLaunched(() => launched.api) : undefined,
    reportFiled: (reportId) => launched.reportAlert?.(reportId),
    botStatus: () => launched.status?.() ?? Promise.resolve('off'),
    shutdownSignal: stopping.signal,
  });
  const adminIds = deps.adminTelegramIds ?? [];
  const bot = launchBot({
    botToken: env.BOT_TOKEN,
    mode: env.BOT_MODE,
    apiRoot: env.TELEGRAM_API_ROOT,
    publicUrl: env.PUBLIC_URL,
    sessionSecret: env.SESSION_SECRET,
    users: services.telegramUsers,
    logger,
    admins: { ids: adminIds, service: services.admin },
    // The bot settles Stars purchases with the same premium service the app's payments use.
    stars: services.premium,
    // `/start link_<token>`: the web account's one-time link, redeemed by the server's service.
    links: services.telegramBotLinks,
  });
  const tellAdmins = bot.api && adminIds.length > 0 ? adminMessenger(bot.api, adminIds, services.telegramUsers, logger) : undefined;
  launched.api = bot.api;
  launched.status = () => bot.status();
  // Bot notifications and e-mails (to users without Telegram) leave through one queue drained here, never
  // inside a request: each is due after its grace period (NOTIFY_GRACE_SECONDS; an unread-message e-mail
  // after 30 minutes), and the worker looks every 2 s.
  // Without SMTP_URL the mailer only prints to the log: no e-mail channel then (nothing is queued for it either).
  const emailChannel: EmailChannel | undefined = services.mailer.printsOnly
    ? undefined
    : {
        mailer: services.mailer,
        publicUrl: env.PUBLIC_URL,
        unsubscribeToken: (userId) => services.unsubscribeTokens.issue(userId),
        dailyCap: env.EMAIL_DAILY_CAP,
      };
  const notifications = new NotificationWorker(db, bot.api ? createTelegramNotifier(bot.api, env.PUBLIC_URL) : undefined, services.clock, logger, emailChannel);
  launched.reportAlert = tellAdmins ? reportAlerter(tellAdmins, services.admin, logger) : undefined;
  const app = createApp({ ...deps, telegramWebhook: bot.webhook }, services);
  if (env.PAYMENT_PROVIDER === 'off') {
    logger.warn(
      'web payments are off: POST /api/payment answers payments_unavailable (PAYMENT_PROVIDER=yookassa takes payments; unset on an https PUBLIC_URL means off)',
    );
  } else if (env.PAYMENT_PROVIDER === 'test' && env.PUBLIC_URL.startsWith('https:')) {
    logger.warn('PAYMENT_PROVIDER=test on a public site: the test checkout grants premium without any payment');
  }
  if (!deps.frontendDist) logger.warn({ frontendDist }, 'no built front end: serving the API only (npm run build)');

  const server = app.listen(env.PORT, env.HOST);
  answerClientErrorsInJson(server);
  await once(server, 'listening');
  // The port really taken (PORT=0 picks a free one), and where to open it.
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  // Without PUBLIC_URL the address is this machine on the port really taken (PORT=0 picks one at random).
  const openAt = process.env.PUBLIC_URL?.trim() ? env.PUBLIC_URL : `http://localhost:${port}`;
  logger.info({ url: openAt, port }, `Iskra is listening on port ${port}: open ${openAt}`);
  bot.startPolling();
  notifications.start();
  // CRON=off for extra processes that should only serve requests (the job locks make it optional).
  const scheduler =
    env.CRON === 'on' ? startScheduler(jobs, jobContextFor(handle, services, { dataDir: env.DATA_DIR, publicUrl: env.PUBLIC_URL }, tellAdmins)) : undefined;
  if (!scheduler) logger.info('CRON=off: scheduled jobs do not run in this process');

  // Stop taking requests, let those in flight finish (event streams are cut: clients reconnect elsewhere),
  // let a running job finish, then close the database; forced after 10 s.
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      void Promise.all([bot.stop(), notifications.stop(), scheduler?.stop()])
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
