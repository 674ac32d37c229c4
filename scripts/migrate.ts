/**
 * `npm run db:migrate`: brings the database named by the environment (DATABASE_URL, else the SQLite file
 * in DATA_DIR) up to the latest migration and prints what it applied. The server also does this at start.
 */
import { openDatabase, toolLockWaitMs } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { parseEnv } from '../server/env.ts';

const env = parseEnv(process.env);
const { db, description, schema } = openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, lockWaitMs: toolLockWaitMs });
try {
  const results = await migrateToLatest(db, schema);
  console.log(`${description}: ${results.length === 0 ? 'already up to date' : `applied ${results.map((r) => r.migrationName).join(', ')}`}`);
} finally {
  await db.destroy();
}
