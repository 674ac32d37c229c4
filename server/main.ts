import type { Api } from 'grammy';
import { idleBot, whyNoBot, type BotStatus } from '../bot/offline.ts';
import { createApp } from './app.ts';
import { frontendDist, servicesFromEnv } from './composition.ts';
import { EnvError, loadEnv } from './env.ts';
import { PostgresEventBus } from './features/events/postgresEventBus.ts';
import { jobContextFor } from './features/jobs/jobContext.ts';
import { jobs } from './features/jobs/jobs.ts';
import { startScheduler, withSchedules } from './features/jobs/scheduler.ts';
import { NotificationWorker, type EmailChannel } from './features/notifications/worker.ts';
import { starsApiOnceLaunched } from './features/premium/stars.ts';
import { WebPushSender } from './features/push/index.ts';
import { createLogger } from './logger.ts';
import { NotMigratedError, openDatabaseForRole } from './roles/database.ts';
import { listenWeb, type WebServer } from './roles/web.ts';
import { startWorker, type RunningWorker } from './roles/worker.ts';

/**
 * The composition root: the only place that builds real things (environment, database, mail, the bot, the
 * HTTP server) and every service, once (composition.ts), handed to the app, the bot and the jobs alike.
 * server/roles/ holds its parts for each ROLE: `all` (one process, the default), `web` (HTTP: the API, the
 * app, the bot's webhook) and `worker` (scheduled jobs, the notification outbox, bot polling; no HTTP).
 */
async function main(): Promise<void> {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL).child({ role: env.ROLE });
  const serves = env.ROLE !== 'worker';
  const works = env.ROLE !== 'web';
  const scheduled = withSchedules(jobs, env.JOB_SCHEDULES);
  if (scheduled.problems.length > 0) throw new EnvError(scheduled.problems);
  const handle = await openDatabaseForRole(env, logger);
  const { db, dialect, schema } = handle;

  // Several processes on one PostgreSQL database ring each other's doorbells for new events: through Redis
  // when REDIS_URL is set (its client is loaded only then), else through LISTEN/NOTIFY.
  const eventBus =
    dialect === 'postgres' && env.DATABASE_URL
      ? env.REDIS_URL
        ? await (
            await import('./features/events/redisEventBus.ts')
          ).RedisEventBus.connect(env.DATABASE_URL, schema ?? 'public', env.REDIS_URL, logger)
        : await PostgresEventBus.start(env.DATABASE_URL, schema ?? 'public', logger)
      : undefined;
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
  // grammY and the bot's code are loaded only where a bot runs (issue 41: memory).
  const noBot = whyNoBot(env.BOT_TOKEN, env.BOT_MODE);
  if (noBot) logger.info(noBot);
  const botCode = noBot ? undefined : await loadBotCode();
  const botOptions = {
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
  };
  const bot = botCode ? botCode.launchBot(botOptions) : idleBot;
  const tellAdmins =
    botCode && bot.api && adminIds.length > 0
      ? botCode.adminMessenger(bot.api, adminIds, services.telegramUsers, logger)
      : undefined;
  launched.api = bot.api;
  launched.status = () => bot.status();
  launched.reportAlert = botCode && tellAdmins ? botCode.reportAlerter(tellAdmins, services.admin, logger) : undefined;
  if (env.PAYMENT_PROVIDER === 'off') {
    logger.warn(
      'web payments are off: POST /api/payment answers payments_unavailable (PAYMENT_PROVIDER=yookassa takes payments; unset on an https PUBLIC_URL means off)',
    );
  } else if (env.PAYMENT_PROVIDER === 'test' && env.PUBLIC_URL.startsWith('https:')) {
    logger.warn('PAYMENT_PROVIDER=test on a public site: the test checkout grants premium without any payment');
  }

  let web: WebServer | undefined;
  if (serves) {
    if (!deps.frontendDist) logger.warn({ frontendDist }, 'no built front end: serving the API only (npm run build)');
    web = await listenWeb(createApp({ ...deps, telegramWebhook: bot.webhook }, services), env.PORT, env.HOST);
    // Without PUBLIC_URL the address is this machine on the port really taken (PORT=0 picks one at random).
    const openAt = process.env.PUBLIC_URL?.trim() ? env.PUBLIC_URL : `http://localhost:${web.port}`;
    logger.info({ url: openAt, port: web.port }, `Iskra is listening on port ${web.port}: open ${openAt}`);
    if (!works && env.BOT_MODE === 'polling' && env.BOT_TOKEN)
      logger.info('ROLE=web: the bot polls in the worker process, not here');
  }
  let worker: RunningWorker | undefined;
  if (works) {
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
    // Web Push to the browsers people subscribed (nothing is queued for anyone who subscribed none).
    const push = new WebPushSender(db, services.push, logger);
    const outbox = new NotificationWorker(
      db,
      botCode && bot.api ? botCode.createTelegramNotifier(bot.api, env.PUBLIC_URL) : undefined,
      services.clock,
      logger,
      emailChannel,
      push,
    );
    worker = startWorker({
      outbox,
      bot,
      logger,
      startScheduler:
        env.CRON === 'on'
          ? () =>
              startScheduler(
                scheduled.jobs,
                jobContextFor(handle, services, { dataDir: env.DATA_DIR, publicUrl: env.PUBLIC_URL }, tellAdmins),
              )
          : undefined,
    });
    // A worker has no HTTP server: its supervisor (systemd) watches the process, and this line says it is up.
    if (!serves) logger.info('Iskra worker started: scheduled jobs, notification outbox, bot polling');
  }

  // Web: stop accepting, tell event streams to reconnect elsewhere (the shutdown signal), let requests in
  // flight finish. Worker: take no more work, let a running job and a notification being sent finish. Both
  // within SHUTDOWN_GRACE_MS; then the database closes. Exit 0 when everything finished in time, else 1.
  const shutdown = async (signal: string) => {
    logger.info({ signal, graceMs: env.SHUTDOWN_GRACE_MS }, 'shutting down');
    // Should closing the database itself hang, the process still ends.
    setTimeout(() => {
      logger.warn('shutdown did not complete: exiting anyway');
      process.exit(1);
    }, env.SHUTDOWN_GRACE_MS + 5000).unref();
    stopping.abort();
    const [served, worked] = await Promise.all([
      web?.close(env.SHUTDOWN_GRACE_MS),
      worker?.stop(env.SHUTDOWN_GRACE_MS),
    ]);
    if (!worker) await bot.stop();
    await Promise.all([db.destroy(), eventBus?.close()]).catch((error: unknown) =>
      logger.warn({ err: error }, 'closing the database failed'),
    );
    if (served === 'cut' || worked === 'cut') {
      logger.warn(
        { requests: served, work: worked },
        `shutdown took over ${env.SHUTDOWN_GRACE_MS} ms: what was left was cut off`,
      );
      process.exit(1);
    }
    logger.info('stopped cleanly');
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

/** The bot's code, with grammY under it: loaded only when a bot runs. */
async function loadBotCode() {
  const [launch, admins, notifier] = await Promise.all([
    import('../bot/launch.ts'),
    import('../bot/admins.ts'),
    import('../bot/notifier.ts'),
  ]);
  return {
    launchBot: launch.launchBot,
    adminMessenger: admins.adminMessenger,
    reportAlerter: admins.reportAlerter,
    createTelegramNotifier: notifier.createTelegramNotifier,
  };
}

main().catch((error: unknown) => {
  if (error instanceof EnvError || error instanceof NotMigratedError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
