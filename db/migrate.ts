import { Migrator, type Kysely, type MigrationResult } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

/**
 * `schema`: where Kysely keeps its own migration tables on PostgreSQL. Without it Kysely takes a
 * `kysely_migration` table in any schema of the database as its own, so a test run working in a schema
 * of its own broke whenever another run's schema existed at the same moment.
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
