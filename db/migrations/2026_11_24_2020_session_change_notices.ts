import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files.

/**
 * PostgreSQL only: tells every server process, through NOTIFY on the schema's sessions channel, which users'
 * sessions ended (sign-out, sign-out elsewhere, password change or reset, account deletion by cascade, ban,
 * expiry cleanup) or whose session facts changed (verified, language, banned), so the short-lived session
 * cache of each process (features/sessions/sessionCache.ts) drops them. Kept by triggers, like
 * search_changed_at, so no write path (the admin CLI included) can forget to tell. A NOTIFY made in a
 * transaction is delivered only when it commits, never if it rolls back. The payload is user ids separated
 * by commas, split under PostgreSQL's 8000-byte limit as the event bus splits its own. SQLite keeps no
 * session cache (one file read in process costs microseconds), so it needs nothing here.
 */

/**
 * The channel: `iskra_sessions_<schema>` while it fits PostgreSQL's 63-byte names (NOTIFY refuses longer
 * ones, LISTEN truncates them), else `iskra_sessions#` and the first 16 hex digits of md5(schema); exactly
 * as noticeChannel('sessions', schema) in server/features/events/noticeChannels.ts, which the listeners use.
 */
const channel = `CASE WHEN TG_TABLE_SCHEMA ~ '^[a-z0-9_]+$' AND octet_length('iskra_sessions_' || TG_TABLE_SCHEMA) <= 63
    THEN 'iskra_sessions_' || TG_TABLE_SCHEMA ELSE 'iskra_sessions#' || left(md5(TG_TABLE_SCHEMA), 16) END`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const statements = [
    `CREATE FUNCTION sessions_ended_notice() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE
       channel text := ${channel};
       payload text := '';
       id text;
     BEGIN
       FOR id IN SELECT DISTINCT user_id::text FROM ended LOOP
         IF length(payload) + length(id) + 1 > 7900 THEN
           PERFORM pg_notify(channel, payload);
           payload := '';
         END IF;
         payload := CASE WHEN payload = '' THEN id ELSE payload || ',' || id END;
       END LOOP;
       IF payload <> '' THEN PERFORM pg_notify(channel, payload); END IF;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER sessions_ended AFTER DELETE ON sessions REFERENCING OLD TABLE AS ended
     FOR EACH STATEMENT EXECUTE FUNCTION sessions_ended_notice()`,
    `CREATE FUNCTION users_session_facts_notice() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN PERFORM pg_notify(${channel}, NEW.id::text); RETURN NULL; END $$`,
    `CREATE TRIGGER users_session_facts AFTER UPDATE OF verified_at, language, banned_at ON users FOR EACH ROW
     WHEN (OLD.verified_at IS DISTINCT FROM NEW.verified_at OR OLD.language IS DISTINCT FROM NEW.language OR OLD.banned_at IS DISTINCT FROM NEW.banned_at)
     EXECUTE FUNCTION users_session_facts_notice()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw('DROP TRIGGER users_session_facts ON users').execute(db);
  await sql.raw('DROP TRIGGER sessions_ended ON sessions').execute(db);
  await sql.raw('DROP FUNCTION users_session_facts_notice()').execute(db);
  await sql.raw('DROP FUNCTION sessions_ended_notice()').execute(db);
}
