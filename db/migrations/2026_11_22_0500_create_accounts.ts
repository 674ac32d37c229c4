import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen once merged: later changes go into new migration files.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  const id = postgres ? 'serial' : 'integer';

  await db.schema
    .createTable('users')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('email', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('ru'))
    .addColumn('verified_at', 'text')
    .addColumn('banned_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_email_unique').on('users').column('email').unique().execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('verification_codes')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('verification_codes_user_created')
    .on('verification_codes')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('verification_codes_email_created')
    .on('verification_codes')
    .columns(['email', 'created_at'])
    .execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', id, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_key_failed')
    .on('login_failures')
    .columns(['key_hash', 'failed_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['login_failures', 'verification_codes', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}

// SQLite wants `integer primary key autoincrement`, PostgreSQL `serial`; the rest is shared.
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
