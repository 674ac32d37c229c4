/**
 * `npm run db:migrate`: brings the database named by the environment (DATABASE_URL, else the SQLite file
 * in DATA_DIR; DATABASE_SCHEMA, created when missing) up to the latest migration and prints what it applied.
 * `npm start` (ROLE=all) also does this at start; ROLE=web and ROLE=worker only check, so with several
 * processes this runs once, first (deploy/systemd/iskra-migrate.service). Two at once on PostgreSQL are
 * safe: Kysely's migrator holds an advisory lock, and the second finds nothing left to apply.
 */
import { openDatabase, toolLockWaitMs } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { parseEnv } from '../server/env.ts';

const env = parseEnv(process.env);
const { db, description, schema } = openDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  searchPath: env.DATABASE_SCHEMA,
  lockWaitMs: toolLockWaitMs,
});
try {
  const results = await migrateToLatest(db, schema);
  console.log(
    `${description}: ${results.length === 0 ? 'already up to date' : `applied ${results.map((r) => r.migrationName).join(', ')}`}`,
  );
} finally {
  await db.destroy();
}
