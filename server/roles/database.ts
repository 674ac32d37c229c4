import { openDatabase, toolLockWaitMs, type DatabaseHandle } from '../../db/client.ts';
import { migrateToLatest, pendingMigrations } from '../../db/migrate.ts';
import type { Env } from '../env.ts';
import type { Logger } from '../logger.ts';

/** A web or worker process found the database behind this code's migrations: it does not start. */
export class NotMigratedError extends Error {
  constructor(pending: readonly string[]) {
    super(
      `The database is not at the latest migration (${pending.length} pending: ${pending.join(', ')}). ` +
        'Run `npm run db:migrate` once (with the same DATABASE_URL and DATABASE_SCHEMA), then start web and worker processes.',
    );
    this.name = 'NotMigratedError';
  }
}

/**
 * Part of the composition root: the database the process serves from. ROLE=all (one process, `npm start`)
 * migrates first, as it always did. ROLE=web and ROLE=worker only check: with several of them starting at
 * once, migrating is one deliberate step (`npm run db:migrate`, the migrate unit in deploy/), and a process
 * on code newer than the schema would fail in odd places later, so it refuses now with what to do.
 */
export async function openDatabaseForRole(env: Env, logger: Logger): Promise<DatabaseHandle> {
  const where = {
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    searchPath: env.DATABASE_SCHEMA,
    onIdleError: (err: Error) => logger.warn({ err }, 'database: an idle connection failed; the pool opens another'),
  };
  if (env.ROLE === 'all') {
    // Migrations run before anything is served, so they may wait for a lock as long as the CLIs do (a job or
    // an admin command holding the SQLite file must not make a restart fail); serving then uses the short budget.
    const migrating = openDatabase({ ...where, lockWaitMs: toolLockWaitMs });
    const applied = await migrateToLatest(migrating.db, migrating.schema).finally(() => migrating.db.destroy());
    const handle = openDatabase(where);
    logger.info({ database: handle.description, migrationsApplied: applied.length }, 'database ready');
    return handle;
  }
  const handle = openDatabase(where);
  const pending = await pendingMigrations(handle.db, handle.schema).catch(async (error: unknown) => {
    await handle.db.destroy();
    throw error;
  });
  if (pending.length > 0) {
    await handle.db.destroy();
    throw new NotMigratedError(pending);
  }
  logger.info({ database: handle.description, role: env.ROLE }, 'database ready (at the latest migration)');
  return handle;
}
