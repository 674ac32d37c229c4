import cron, { type ScheduledTask } from 'node-cron';
import type { JobContext, JobDefinition } from './job.ts';
import { runJob } from './runJob.ts';

/**
 * Starts every job on its cron schedule (UTC). Every server process may do this: the job's database lock
 * lets one of them run it and records the others as skipped. `stop` waits for runs in progress, so a
 * shutdown never cuts a job off half-way.
 */
export function startScheduler(definitions: readonly JobDefinition[], ctx: JobContext): { stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const tasks: ScheduledTask[] = definitions.map((job) =>
    cron.schedule(
      job.schedule,
      () => {
        const run = runJob(job, ctx).catch((error: unknown) => ctx.logger.error({ err: error, job: job.name }, 'job could not run'));
        running.add(run);
        void run.finally(() => running.delete(run));
      },
      { name: job.name, timezone: 'UTC', noOverlap: true },
    ),
  );
  return {
    async stop() {
      for (const task of tasks) await task.stop();
      await Promise.all([...running]);
    },
  };
}
