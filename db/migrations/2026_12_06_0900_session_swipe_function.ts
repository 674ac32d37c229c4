import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once merged: later changes go into new migration files (CREATE OR REPLACE FUNCTION).

/**
 * PostgreSQL: `iskra_session_swipe`, a like or dislike without a message together with the check of the
 * session that asks for it, in one statement (issue 41 goal 1). A POST always read its session row in a
 * statement of its own before the like's `iskra_plain_swipe` (2026_12_05_0900_plain_swipe_whole_read), and a
 * session's first request of five minutes wrote its "last seen" and its profile's activity mark in two more
 * (each a round trip, and the writes a commit each): here the session is read first (live: not expired, its
 * account not banned; the same terms as findLiveSession in server/features/sessions/repository.ts), then
 * iskra_plain_swipe runs for its account exactly as it runs alone (its locks, read and plain write), then the
 * bookkeeping writes, when due, ride in the same commit. An ended session answers `session: null` and touches
 * nothing. Each statement of a volatile PL/pgSQL function takes its own snapshot, so the session is read as
 * committed when the statement starts, as the separate read saw it.
 *
 * The bookkeeping never waits: the session's row is written only when no other transaction holds it (SKIP
 * LOCKED; a sign-out or an account deletion holding it may otherwise wait on this statement's profile locks
 * while this waits on theirs), and the profile's mark only on the caller's row, which the swipe's locks already
 * hold. It was best-effort before too (not awaited, its failure ignored).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql
    .raw(
      `CREATE FUNCTION iskra_session_swipe(p_session text, p_now text, p_seen_before text, p_active_before text,
         p_target integer, p_liked integer, p_at text, p_since text, p_like_limit integer)
         RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  v_session record;
  v_outcome jsonb;
BEGIN
  SELECT s.user_id, s.expires_at, s.last_seen_at, u.verified_at, u.language, u.banned_at,
      p.id AS profile_id, p.active_at
    INTO v_session
    FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN profiles p ON p.user_id = s.user_id
    WHERE s.id_hash = p_session AND s.expires_at > p_now;
  IF NOT FOUND OR v_session.banned_at IS NOT NULL THEN
    RETURN jsonb_build_object('session', NULL);
  END IF;
  v_outcome := iskra_plain_swipe(v_session.user_id, p_target, p_liked, p_at, p_since, p_like_limit);
  -- The session service's bookkeeping (resolveSessionId): "last seen" at most once per interval, and with it
  -- the profile's activity mark when that is older than its own interval (or missing, with a profile to mark).
  IF v_session.last_seen_at IS NULL OR v_session.last_seen_at < p_seen_before THEN
    UPDATE sessions SET last_seen_at = p_now WHERE id_hash IN (
      SELECT id_hash FROM sessions WHERE id_hash = p_session FOR UPDATE SKIP LOCKED);
    IF v_session.active_at < p_active_before
        OR (v_session.active_at IS NULL AND v_session.profile_id IS NOT NULL) THEN
      UPDATE profiles SET active_at = p_now WHERE user_id = v_session.user_id
        AND (active_at IS NULL OR active_at < p_active_before);
    END IF;
  END IF;
  RETURN v_outcome || jsonb_build_object('session', jsonb_build_object('user_id', v_session.user_id,
    'expires_at', v_session.expires_at, 'verified', v_session.verified_at IS NOT NULL,
    'language', v_session.language));
END
$fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql
    .raw('DROP FUNCTION iskra_session_swipe(text, text, text, text, integer, integer, text, text, integer)')
    .execute(db);
}
