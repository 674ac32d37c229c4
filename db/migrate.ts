import { Migrator, type Kysely, type MigrationResult } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

/**
 * `schema` (PostgreSQL): without it Kysely would take another schema's migration tables for ours when
 * several schemas share the database (test runs, a staging copy) and then fail to find them.
 */
export function createMigrator(db: Kysely<Database>, schema?: string): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** Brings the schema up to date; throws when a migration fails (PostgreSQL rolls the batch back). */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<MigrationResult[]> {
  const { error, results } = await createMigrator(db, schema).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
  return results ?? [];
}

/**
 * The migrations this code knows that the database has not run: a web or worker process refuses to start
 * on an older schema rather than migrate it itself (several of them starting at once would race to).
 */
export async function pendingMigrations(db: Kysely<Database>, schema?: string): Promise<string[]> {
  const known = await createMigrator(db, schema).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
