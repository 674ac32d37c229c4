/** True for a unique-constraint violation on either database (a lost race on an insert). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = error.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True for a foreign key violation on either database (the row referred to was deleted meanwhile). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  return error.code === '23503' || error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** True for SQLite's "database is locked" (SQLITE_BUSY and its extended codes): another connection has the lock. */
export function isSqliteBusy(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  return typeof error.code === 'string' && error.code.startsWith('SQLITE_BUSY');
}

/**
 * The SQLite file's write lock stayed with another process (the admin CLI, `npm run job`, a backup tool)
 * for longer than this connection may wait. Nothing was written; the same call may succeed a moment later.
 */
export class DatabaseBusyError extends Error {
  constructor(
    readonly waitedMs: number,
    options?: ErrorOptions,
  ) {
    super(`the database stayed locked by another connection for ${waitedMs} ms`, options);
    this.name = 'DatabaseBusyError';
  }
}
