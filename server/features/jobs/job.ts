import type SQLite from 'better-sqlite3';
import type { Mailer } from '../../mail/mailer.ts';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../../db/client.ts';
import type { Database } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import type { PhotoStore } from '../photos/index.ts';
import type { PremiumService } from '../premium/index.ts';

/** What a job did, for the log and the job_runs row: e.g. `{ deleted: 3 }`. */
export type JobCounts = Record<string, number>;

/** Everything a job may touch; built once in server/main.ts (or scripts/job.ts) and by tests. */
export interface JobContext {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  logger: Logger;
  dataDir: string;
  photos: PhotoStore;
  /** Payments: the reconciliation of pending YooKassa payments. */
  premium?: Pick<PremiumService, 'reconcile'> | undefined;
  /** E-mail, for reminders to people the bot cannot reach; absent: no e-mail is sent. */
  mailer?: Mailer | undefined;
  /** PUBLIC_URL, for links in what the jobs send. */
  publicUrl?: string | undefined;
  /** SQLite only: the connection, for the online backup. */
  sqlite?: SQLite.Database | undefined;
  /**
   * Aborted when the process stops and its grace period (SHUTDOWN_GRACE_MS) has run out. A job that works
   * through pages or items checks it between them (`signal?.throwIfAborted()`), so it stops at a boundary;
   * runJob records the run as interrupted either way. Absent: never aborted (a run by hand, most tests).
   */
  signal?: AbortSignal | undefined;
  /** Sends a message, written in each admin's language, to every admin (the bot, ADMIN_TELEGRAM_IDS); answers how many got it. Absent without a bot. */
  tellAdmins?: ((text: (language: Language) => string) => Promise<number>) | undefined;
}

export interface JobDefinition {
  name: string;
  /** Cron expression (croner: five fields, or six with seconds first), in UTC. */
  schedule: string;
  /** How long the lock is held at most; a run that takes longer could overlap with the next. */
  leaseSeconds: number;
  run(ctx: JobContext): Promise<JobCounts>;
}
