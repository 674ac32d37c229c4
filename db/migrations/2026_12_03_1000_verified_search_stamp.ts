import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `profiles.verified` stamps `profiles.search_changed_at` when it changes (issue 40): the search's
 * `verifiedOnly` filter lets someone in once verified, and a pool only learns of a person through the stamp
 * (server/features/search/filters.ts). A new profile is stamped already (profiles_search_insert).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The function of the search_changes migration: it sets NEW.search_changed_at before the row is written.
    await sql
      .raw(
        `CREATE TRIGGER profiles_verified_search BEFORE UPDATE OF verified ON profiles
         FOR EACH ROW WHEN (OLD.verified IS DISTINCT FROM NEW.verified) EXECUTE FUNCTION profiles_search_touch()`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE TRIGGER profiles_verified_search AFTER UPDATE OF verified ON profiles
       WHEN OLD.verified IS NOT NEW.verified
       BEGIN UPDATE profiles SET search_changed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = NEW.id; END`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql
    .raw(postgres ? 'DROP TRIGGER profiles_verified_search ON profiles' : 'DROP TRIGGER profiles_verified_search')
    .execute(db);
}
