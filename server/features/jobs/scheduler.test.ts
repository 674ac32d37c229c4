import { describe, expect, it } from 'vitest';
import { jobs } from './jobs.ts';
import { withSchedules } from './scheduler.ts';

describe('JOB_SCHEDULES', () => {
  it('replaces the named jobs’ schedules and keeps the others', () => {
    const { jobs: scheduled, problems } = withSchedules(jobs, 'weekly_report=0 8 * * 5; cleanup_expired=*/2 * * * * *');
    expect(problems).toEqual([]);
    expect(scheduled.find((j) => j.name === 'weekly_report')?.schedule).toBe('0 8 * * 5');
    expect(scheduled.find((j) => j.name === 'cleanup_expired')?.schedule).toBe('*/2 * * * * *');
    expect(scheduled.find((j) => j.name === 'sqlite_backup')?.schedule).toBe('0 2 * * *');
    expect(withSchedules(jobs, undefined).jobs).toEqual(jobs);
  });

  it('takes every job’s own schedule, and refuses a field out of range', () => {
    const own = jobs.map((job) => `${job.name}=${job.schedule}`).join(';');
    expect(withSchedules(jobs, own).problems).toEqual([]);
    expect(withSchedules(jobs, 'weekly_report=61 * * * *').problems).toHaveLength(1);
    expect(withSchedules(jobs, 'weekly_report=0 8 * * 5 2026 extra').problems).toHaveLength(1);
  });

  it('names every unknown job and bad expression at once', () => {
    const { problems } = withSchedules(jobs, 'no_such_job=* * * * *;weekly_report=every monday;nonsense');
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('"no_such_job=* * * * *" names no job');
    expect(problems[1]).toContain('"every monday" is not a cron expression (for weekly_report)');
    expect(problems[2]).toContain('"nonsense" names no job');
  });
});
