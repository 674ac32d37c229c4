import type { Logger } from '../logger.ts';

/** What a worker (or all-in-one) process runs besides HTTP: each part knows how to start and stop. */
export interface WorkerParts {
  /** The notification outbox (NotificationWorker). */
  outbox: { start(): void; stop(): Promise<void> };
  /** The scheduled jobs; absent with CRON=off. */
  startScheduler: (() => { stop(): Promise<void> }) | undefined;
  /** Bot long polling (BOT_MODE=polling); a no-op otherwise. */
  bot: { startPolling(): void; stop(): Promise<void> };
  logger: Logger;
}

export interface RunningWorker {
  /**
   * Stops taking work: no new Telegram updates, no new job runs, no new outbox claims. A job already running
   * and a notification being sent finish, for up to `graceMs`; after that the process may exit anyway (the
   * job's lock and the notification's claim are leases, so another worker takes them when they lapse).
   */
  stop(graceMs: number): Promise<'finished' | 'cut'>;
}

/** Part of the composition root (server/main.ts): starts the worker's parts. */
export function startWorker(parts: WorkerParts): RunningWorker {
  parts.bot.startPolling();
  parts.outbox.start();
  const scheduler = parts.startScheduler?.();
  // CRON=off: for a worker that should only drain the outbox and poll (the job locks make it optional).
  if (!scheduler) parts.logger.info('CRON=off: scheduled jobs do not run in this process');
  return {
    async stop(graceMs) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'cut'>((resolve) => (timer = setTimeout(() => resolve('cut'), graceMs)));
      const finished = Promise.all([parts.bot.stop(), parts.outbox.stop(), scheduler?.stop()])
        .catch((error: unknown) => parts.logger.warn({ err: error }, 'worker: a part failed while stopping'))
        .then(() => 'finished' as const);
      const outcome = await Promise.race([finished, deadline]);
      clearTimeout(timer);
      return outcome;
    },
  };
}
