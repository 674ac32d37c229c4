import { describe, expect, it } from 'vitest';
import { jobs } from './jobs.ts';
import { Cron } from 'croner';
import { slotOf, withSchedules } from './scheduler.ts';

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
    // Seven fields (a year), a date for a single run, a day that never comes.
    expect(withSchedules(jobs, 'weekly_report=0 0 8 * * 5 2030').problems).toHaveLength(1);
    expect(withSchedules(jobs, 'weekly_report=2030-05-01T08:00:00').problems).toHaveLength(1);
    expect(withSchedules(jobs, 'weekly_report=0 8 31 2 *').problems).toHaveLength(1);
  });

  it('names every unknown job and bad expression at once', () => {
    const { problems } = withSchedules(jobs, 'no_such_job=* * * * *;weekly_report=every monday;nonsense');
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('"no_such_job=* * * * *" names no job');
    expect(problems[1]).toContain('"every monday" is not a cron expression (for weekly_report)');
    expect(problems[2]).toContain('"nonsense" names no job');
  });

  it('names a firing by its scheduled time, whenever its timer fired', () => {
    const everyMinute = new Cron('0 * * * * *', { utcOffset: 0, paused: true });
    const at = (iso: string) => slotOf(everyMinute, new Date(iso)).toISOString();
    // Exactly on time, a few milliseconds late, and more than a period late (the latest slot then).
    expect(at('2026-11-29T12:00:00.000Z')).toBe('2026-11-29T12:00:00.000Z');
    expect(at('2026-11-29T12:00:00.004Z')).toBe('2026-11-29T12:00:00.000Z');
    expect(at('2026-11-29T12:01:30.000Z')).toBe('2026-11-29T12:01:00.000Z');
    everyMinute.stop();
  });
});
