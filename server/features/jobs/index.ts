export { cleanupExpired } from './cleanupExpired.ts';
export type { JobContext } from './job.ts';
export { jobNamed } from './jobs.ts';
export { runJob } from './runJob.ts';
