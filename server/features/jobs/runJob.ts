import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { JobStatus } from '../../../db/schema.ts';
import { acquireJobLock, finishJobRun, insertJobRun, releaseJobLock } from './repository.ts';
import type { JobContext, JobCounts, JobDefinition } from './job.ts';

export interface JobRunResult {
  status: Exclude<JobStatus, 'running'>;
  counts: JobCounts;
  error?: string;
}

export const defaultRunner = `${hostname()}:${process.pid}`;

/**
 * Runs a job once under its database lock and records the run in job_runs. When another process holds the
 * lock, or already ran this cron `slot` (the firing's scheduled time; absent for a run by hand), the run is
 * recorded as skipped and nothing else happens, so cron firing on every worker is harmless.
 */
export async function runJob(job: JobDefinition, ctx: JobContext, runner = defaultRunner, slot?: Date): Promise<JobRunResult> {
  const startedAt = ctx.clock.now();
  const holder = `${runner}:${randomUUID()}`;
  const log = ctx.logger.child({ job: job.name, runner });
  const slotIso = slot?.toISOString() ?? null;
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
    result = { status: 'ok', counts: await job.run(ctx) };
  } catch (error) {
    result = { status: 'failed', counts: {}, error: error instanceof Error ? error.message : String(error) };
    log.error({ err: error }, 'job failed');
  }
  const durationMs = Math.round(performance.now() - began);
  await finishJobRun(ctx.db, runId, {
    finished_at: ctx.clock.now().toISOString(),
    status: result.status,
    counts: JSON.stringify(result.counts),
    error: result.error ?? null,
  });
  await releaseJobLock(ctx.db, job.name, holder);
  log.info({ status: result.status, durationMs, counts: result.counts }, 'job finished');
  return result;
}
