import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { JobStatus } from '../../../db/schema.ts';
import {
  acquireJobLock,
  finishJobRun,
  insertJobRun,
  lastJobSlot,
  releaseInterruptedJobLock,
  releaseJobLock,
} from './repository.ts';
import type { JobContext, JobCounts, JobDefinition } from './job.ts';

export interface JobRunResult {
  status: Exclude<JobStatus, 'running'>;
  counts: JobCounts;
  error?: string;
}

export const defaultRunner = `${hostname()}:${process.pid}`;

/** Settles with `work`, or rejects as soon as `signal` aborts (the work's own later outcome is dropped). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Runs a job once under its database lock and records the run in job_runs. When another process holds the
 * lock, or already ran this cron `slot` (the firing's scheduled time; absent for a run by hand), the run is
 * recorded as skipped and nothing else happens, so cron firing on every worker is harmless.
 *
 * When `ctx.signal` aborts (the process is stopping and its grace period ran out) the run is recorded as
 * interrupted at once, its lock released and its slot given back, while the database is still open: a
 * worker killed with its job half-done would otherwise leave the lock held for the whole lease, the run
 * `running` for ever and the firing marked done. The job itself stops at its next check of the signal; what
 * it still does until then overlaps at most the moments before this process exits.
 */
export async function runJob(
  job: JobDefinition,
  ctx: JobContext,
  runner = defaultRunner,
  slot?: Date,
): Promise<JobRunResult> {
  const startedAt = ctx.clock.now();
  const holder = `${runner}:${randomUUID()}`;
  const log = ctx.logger.child({ job: job.name, runner });
  const slotIso = slot?.toISOString() ?? null;
  // What the slot was before this run takes it, to give back if the run is interrupted.
  const previousSlot = slotIso === null ? null : await lastJobSlot(ctx.db, job.name);
  if (!(await acquireJobLock(ctx.db, job.name, holder, startedAt, job.leaseSeconds, slotIso ?? undefined))) {
    await insertJobRun(ctx.db, {
      name: job.name,
      runner,
      started_at: startedAt.toISOString(),
      finished_at: startedAt.toISOString(),
      status: 'skipped',
      counts: '{}',
      error: null,
      slot: slotIso,
    });
    log.info('job skipped: another process is running it or ran this slot');
    return { status: 'skipped', counts: {} };
  }
  const runId = await insertJobRun(ctx.db, {
    name: job.name,
    runner,
    started_at: startedAt.toISOString(),
    finished_at: null,
    status: 'running',
    counts: '{}',
    error: null,
    slot: slotIso,
  });
  log.info('job started');
  const began = performance.now();
  let result: JobRunResult;
  try {
    result = { status: 'ok', counts: await untilAborted(job.run(ctx), ctx.signal) };
  } catch (error) {
    if (ctx.signal?.aborted) {
      result = { status: 'interrupted', counts: {}, error: 'interrupted: the process stopped before the job finished' };
      log.warn('job interrupted by shutdown: its lock is released and its firing left to run again');
    } else {
      result = { status: 'failed', counts: {}, error: error instanceof Error ? error.message : String(error) };
      log.error({ err: error }, 'job failed');
    }
  }
  const durationMs = Math.round(performance.now() - began);
  await finishJobRun(ctx.db, runId, {
    finished_at: ctx.clock.now().toISOString(),
    status: result.status,
    counts: JSON.stringify(result.counts),
    error: result.error ?? null,
  });
  // A run by hand took no slot, so has none to give back.
  if (result.status === 'interrupted' && slotIso !== null)
    await releaseInterruptedJobLock(ctx.db, job.name, holder, previousSlot);
  else await releaseJobLock(ctx.db, job.name, holder);
  log.info({ status: result.status, durationMs, counts: result.counts }, 'job finished');
  return result;
}
