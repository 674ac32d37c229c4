import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * `profiles.search_changed_at`: when something that decides whether a person can appear in others'
 * searches last changed (features/discovery/searchChanges.ts and candidatePool.ts). Kept by triggers, so
 * no write path can forget it: a new profile; gender, age, preference, position, private mode or the
 * moderation hold; the account verified, banned or unbanned; a like given by someone in private mode (it
 * makes them visible to the person liked). The time is the database's, as ISO text like every other time
 * column.
 */
const searchColumns = ['gender', 'age', 'preferred_gender', 'latitude', 'longitude', 'private_mode', 'held_at'];

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('profiles').addColumn('search_changed_at', 'text').execute();
  await db.schema
    .createIndex('profiles_search_changed')
    .on('profiles')
    .columns(['search_changed_at', 'latitude', 'longitude'])
    .execute();
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const now = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  const changed = (columns: string[]) => columns.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
  const statements = [
    `CREATE TRIGGER profiles_search_insert AFTER INSERT ON profiles
     BEGIN UPDATE profiles SET search_changed_at = ${now} WHERE id = NEW.id; END`,
    `CREATE TRIGGER profiles_search_update AFTER UPDATE OF ${searchColumns.join(', ')} ON profiles
     WHEN ${changed(searchColumns)}
     BEGIN UPDATE profiles SET search_changed_at = ${now} WHERE id = NEW.id; END`,
    `CREATE TRIGGER users_search_update AFTER UPDATE OF verified_at, banned_at ON users
     WHEN ${changed(['verified_at', 'banned_at'])}
     BEGIN UPDATE profiles SET search_changed_at = ${now} WHERE user_id = NEW.id; END`,
    `CREATE TRIGGER swipes_search_insert AFTER INSERT ON swipes WHEN NEW.liked = 1
     BEGIN UPDATE profiles SET search_changed_at = ${now} WHERE id = NEW.swiper_id AND private_mode = 1; END`,
    `CREATE TRIGGER swipes_search_update AFTER UPDATE OF liked ON swipes WHEN NEW.liked = 1 AND OLD.liked IS NOT 1
     BEGIN UPDATE profiles SET search_changed_at = ${now} WHERE id = NEW.swiper_id AND private_mode = 1; END`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  // clock_timestamp(), not now(): now() is the transaction's start, which may be long before its commit.
  // Each function keeps the schema it was made in (SET search_path FROM CURRENT), so a session with
  // another search path still touches this schema's profiles.
  const now = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const changed = (columns: string[]) => columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
  const statements = [
    `CREATE FUNCTION profiles_search_touch() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     BEGIN NEW.search_changed_at := ${now}; RETURN NEW; END $$`,
    `CREATE TRIGGER profiles_search_insert BEFORE INSERT ON profiles FOR EACH ROW EXECUTE FUNCTION profiles_search_touch()`,
    `CREATE TRIGGER profiles_search_update BEFORE UPDATE OF ${searchColumns.join(', ')} ON profiles
     FOR EACH ROW WHEN (${changed(searchColumns)}) EXECUTE FUNCTION profiles_search_touch()`,
    `CREATE FUNCTION users_search_touch() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     BEGIN UPDATE profiles SET search_changed_at = ${now} WHERE user_id = NEW.id; RETURN NULL; END $$`,
    `CREATE TRIGGER users_search_update AFTER UPDATE OF verified_at, banned_at ON users
     FOR EACH ROW WHEN (${changed(['verified_at', 'banned_at'])}) EXECUTE FUNCTION users_search_touch()`,
    `CREATE FUNCTION swipes_search_touch() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
     BEGIN UPDATE profiles SET search_changed_at = ${now} WHERE id = NEW.swiper_id AND private_mode = 1; RETURN NULL; END $$`,
    `CREATE TRIGGER swipes_search_insert AFTER INSERT ON swipes FOR EACH ROW WHEN (NEW.liked = 1) EXECUTE FUNCTION swipes_search_touch()`,
    `CREATE TRIGGER swipes_search_update AFTER UPDATE OF liked ON swipes
     FOR EACH ROW WHEN (NEW.liked = 1 AND OLD.liked IS DISTINCT FROM 1) EXECUTE FUNCTION swipes_search_touch()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const triggers: [string, string][] = [
    ['profiles_search_insert', 'profiles'],
    ['profiles_search_update', 'profiles'],
    ['users_search_update', 'users'],
    ['swipes_search_insert', 'swipes'],
    ['swipes_search_update', 'swipes'],
  ];
  for (const [name, table] of triggers)
    await sql.raw(postgres ? `DROP TRIGGER ${name} ON ${table}` : `DROP TRIGGER ${name}`).execute(db);
  if (postgres)
    for (const fn of ['profiles_search_touch', 'users_search_touch', 'swipes_search_touch'])
      await sql.raw(`DROP FUNCTION ${fn}()`).execute(db);
  await db.schema.dropIndex('profiles_search_changed').execute();
  await db.schema.alterTable('profiles').dropColumn('search_changed_at').execute();
}
