/**
 * Runs one scheduled job now, under the same lock and with the same job_runs record as the schedule:
 *   npm run job -- <name>        (npm run job -- list  shows the names and schedules)
 * Exits 1 when the job failed, 2 when another process was running it.
 */
import { Api } from 'grammy';
import { adminMessenger } from '../bot/admins.ts';
import { openDatabase, toolLockWaitMs } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { servicesFromEnv } from '../server/composition.ts';
import { loadEnv } from '../server/env.ts';
import { jobContextFor } from '../server/features/jobs/jobContext.ts';
import { jobNamed, jobs } from '../server/features/jobs/jobs.ts';
import { runJob } from '../server/features/jobs/runJob.ts';
import { createLogger } from '../server/logger.ts';

const name = process.argv[2];
const job = name ? jobNamed(name) : undefined;
if (!job) {
  console.log(`usage: npm run job -- <name>\n\n${jobs.map((j) => `  ${j.name.padEnd(20)} ${j.schedule}`).join('\n')}`);
  process.exit(name && name !== 'list' ? 64 : 0);
}
const env = loadEnv();
const logger = createLogger(env.LOG_LEVEL);
const handle = openDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  searchPath: env.DATABASE_SCHEMA,
  lockWaitMs: toolLockWaitMs,
});
await migrateToLatest(handle.db, handle.schema);
const api = env.BOT_TOKEN ? new Api(env.BOT_TOKEN, { apiRoot: env.TELEGRAM_API_ROOT }) : undefined;
// The same services as the server's, built by the same recipe.
const { deps, services } = servicesFromEnv(env, handle, logger);
const adminIds = deps.adminTelegramIds ?? [];
const tellAdmins =
  api && adminIds.length > 0 ? adminMessenger(api, adminIds, services.telegramUsers, logger) : undefined;
const result = await runJob(
  job,
  jobContextFor(handle, services, { dataDir: env.DATA_DIR, publicUrl: env.PUBLIC_URL }, tellAdmins),
);
await handle.db.destroy();
console.log(JSON.stringify(result));
process.exit(result.status === 'ok' ? 0 : result.status === 'skipped' ? 2 : 1);
