import { Migrator, type Kysely, type MigrationResult } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

/**
 * `schema` names the PostgreSQL schema of Kysely's own bookkeeping tables. Without it Kysely's
 * "does the migration table exist" check looks at every schema of the server, so a database in one
 * schema would take another schema's tables for its own (tests give each file a schema of its own).
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
