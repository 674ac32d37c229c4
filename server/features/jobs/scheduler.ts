import { Cron } from 'croner';
import type { JobContext, JobDefinition } from './job.ts';
import { runJob } from './runJob.ts';

export interface RunningScheduler {
  /** No new firings; settles once the runs in progress have finished (or, after `interrupt`, recorded so). */
  stop(): Promise<void>;
  /** The grace period is over: the runs in progress are aborted, recorded as interrupted and their firings freed. */
  interrupt(): void;
}

/** Five fields, or six with seconds first; in UTC by plain date arithmetic (no time zone data). */
const cronOptions = { mode: '5-or-6-parts', utcOffset: 0 } as const;

/**
 * The slot a firing at `now` is for: the schedule's latest time at or before `now`, the same in every process
 * whenever its timer really fired (croner fires at or a few milliseconds after its target, later on a busy
 * machine). `previousRuns` answers times strictly before its reference, hence the millisecond: a timer
 * firing exactly on its target would otherwise name the slot before.
 */
export function slotOf(schedule: Cron, now: Date): Date {
  return schedule.previousRuns(1, new Date(now.getTime() + 1))[0] ?? now;
}

/**
 * Starts every job on its cron schedule (UTC). Every worker process may do this: the job's database lock
 * lets one of them run each firing (its slot) and records the others as skipped. `stop` waits for runs in
 * progress, so a shutdown does not cut a job off half-way unless the grace period runs out (`interrupt`).
 *
 * croner rather than node-cron: node-cron reads every time through `Intl.DateTimeFormat` with a time zone,
 * even UTC, which maps ICU's zone data into the process: 12 MB more resident memory for an idle server
 * (an empty Node process 42 MB, with two node-cron schedules 55 MB, with croner's 43 MB). croner with a UTC
 * offset of 0 does plain date arithmetic.
 */
export function startScheduler(definitions: readonly JobDefinition[], jobContext: JobContext): RunningScheduler {
  const interrupted = new AbortController();
  const ctx: JobContext = { ...jobContext, signal: interrupted.signal };
  const running = new Set<Promise<unknown>>();
  const tasks = definitions.map(
    (job) =>
      // `protect`: a firing while this process still runs the job's previous one is let go (its slot is
      // another process's to take, or skipped), as node-cron's noOverlap did; so the callback answers the run.
      new Cron(job.schedule, { ...cronOptions, protect: true }, (self) => {
        const run = runJob(job, ctx, undefined, slotOf(self, new Date())).then(
          () => undefined,
          (error: unknown) => ctx.logger.error({ err: error, job: job.name }, 'job could not run'),
        );
        running.add(run);
        void run.finally(() => running.delete(run));
        return run;
      }),
  );
  return {
    async stop() {
      for (const task of tasks) task.stop();
      await Promise.all([...running]);
    },
    interrupt() {
      interrupted.abort(new Error('the process is stopping and its grace period ran out'));
    },
  };
}

/**
 * JOB_SCHEDULES: `name=cron expression`, separated by `;`, replaces those jobs' schedules (a quieter hour
 * for a heavy job; the multi-process test fires jobs every few seconds). Answers the jobs with their
 * schedules, or the problems (an unknown job, an expression croner refuses).
 */
export function withSchedules(
  definitions: readonly JobDefinition[],
  spec: string | undefined,
): { jobs: readonly JobDefinition[]; problems: string[] } {
  const problems: string[] = [];
  const overrides = new Map<string, string>();
  for (const entry of (spec ?? '').split(';')) {
    if (!entry.trim()) continue;
    const at = entry.indexOf('=');
    const name = entry.slice(0, at).trim();
    const expression = entry.slice(at + 1).trim();
    if (at < 0 || !definitions.some((j) => j.name === name)) {
      problems.push(`JOB_SCHEDULES: "${entry.trim()}" names no job (${definitions.map((j) => j.name).join(', ')})`);
    } else if (!isCronExpression(expression)) {
      problems.push(`JOB_SCHEDULES: "${expression}" is not a cron expression (for ${name})`);
    } else {
      overrides.set(name, expression);
    }
  }
  return { jobs: definitions.map((job) => ({ ...job, schedule: overrides.get(job.name) ?? job.schedule })), problems };
}

/**
 * Whether `expression` is a schedule croner runs: five fields, or six with seconds first, that fire at some
 * time to come (croner would also take a date for a single run, or a day that never comes).
 */
function isCronExpression(expression: string): boolean {
  try {
    const schedule = new Cron(expression, { ...cronOptions, paused: true });
    const recurring = schedule.getOnce() === null && schedule.nextRun() !== null;
    schedule.stop();
    return recurring;
  } catch {
    return false;
  }
}
