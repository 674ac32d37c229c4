import type { RunningScheduler } from '../features/jobs/scheduler.ts';
import type { Logger } from '../logger.ts';

/** What a worker (or all-in-one) process runs besides HTTP: each part knows how to start and stop. */
export interface WorkerParts {
  /** The notification outbox (NotificationWorker). */
  outbox: { start(): void; stop(): Promise<void> };
  /** The scheduled jobs; absent with CRON=off. */
  startScheduler: (() => RunningScheduler) | undefined;
  /** Bot long polling (BOT_MODE=polling); a no-op otherwise. */
  bot: { startPolling(): void; stop(): Promise<void> };
  logger: Logger;
}

export interface RunningWorker {
  /**
   * Stops taking work: no new Telegram updates, no new job runs, no new outbox claims. A job already running
   * and a notification being sent finish, for up to `graceMs`. After that a running job is interrupted: its
   * run is recorded so, its lock released and its firing freed (within `interruptRecordMs`, before the
   * database closes); a notification's claim is a lease another worker takes when it lapses.
   */
  stop(graceMs: number): Promise<'finished' | 'cut'>;
}

/** How long an interrupted job may take to record itself (a few statements) before the process goes on closing. */
const interruptRecordMs = 3_000;

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
      const jobsStopped = scheduler?.stop();
      const finished = Promise.all([parts.bot.stop(), parts.outbox.stop(), jobsStopped])
        .catch((error: unknown) => parts.logger.warn({ err: error }, 'worker: a part failed while stopping'))
        .then(() => 'finished' as const);
      const outcome = await Promise.race([finished, deadline]);
      clearTimeout(timer);
      if (outcome === 'cut' && scheduler) {
        scheduler.interrupt();
        let recordTimer: NodeJS.Timeout | undefined;
        await Promise.race([
          jobsStopped?.catch(() => undefined),
          new Promise<void>((resolve) => (recordTimer = setTimeout(resolve, interruptRecordMs))),
        ]);
        clearTimeout(recordTimer);
      }
      return outcome;
    },
  };
}
