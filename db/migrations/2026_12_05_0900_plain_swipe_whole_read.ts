import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { up as previous } from './2026_12_04_0900_plain_swipe_function.ts';

// Frozen once merged: later changes go into new migration files (CREATE OR REPLACE FUNCTION).

/**
 * PostgreSQL: `iskra_plain_swipe` (2026_12_04_0900_plain_swipe_function, whose rules and locks it keeps as they
 * were) answers everything its read found, not only what the plain case needs: the caller's name, gender and
 * premium, and of the person their premium, both swipes' messages, their like's time, the caller's photo and,
 * when counted, the free likes of the window (count and oldest). Why: a like that is not plain cost a round trip
 * more than before the function (the function's, then begin, the pair's locks, the read). With the whole read
 * the service answers a refusal or a repeat from the function's answer alone (decided under the same locks as
 * the transaction would), and the transaction path calls the same function as its first statement (its locks
 * then last until the commit), in place of the lock and the read: a match or a notified like costs what it did
 * before the function, the rules of the read staying written once in SQL here and once in likeStateQuery
 * (server/features/swipes/repository.ts). The service's PlainSwipeOutcome is the shape of the answer.
 *
 * `p_notifies` (false by default, as the function was): the caller notifies in the same transaction, so a like
 * that a notification could reach is plain too (the transaction path, which then queues the notification,
 * wrote the swipe with its read before the function existed: a like to notify keeps that statement count).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // A parameter more is another function: the six-argument one goes, and the default keeps its calls working.
  await sql.raw('DROP FUNCTION iskra_plain_swipe(integer, integer, integer, text, text, integer)').execute(db);
  await sql
    .raw(
      `CREATE FUNCTION iskra_plain_swipe(p_user integer, p_target integer, p_liked integer, p_at text,
         p_since text, p_like_limit integer, p_notifies boolean DEFAULT false) RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  v_row record;
  v_me record;
  v_found boolean := false;
  v_state record;
  v_counting boolean;
  v_plain boolean;
  v_caller jsonb;
BEGIN
  -- The pair's row locks in id order, the caller's profile read with them (the loop reads every row, so both
  -- are locked before anything else is read).
  FOR v_row IN
    SELECT p.id, p.user_id, p.name, p.gender, u.premium_until
      FROM profiles p JOIN users u ON u.id = p.user_id
      WHERE p.user_id = p_user OR p.id = p_target ORDER BY p.id FOR NO KEY UPDATE OF p
  LOOP
    IF v_row.user_id = p_user THEN
      v_me := v_row;
      v_found := true;
    END IF;
  END LOOP;
  IF NOT v_found THEN
    RETURN jsonb_build_object('me', NULL, 'state', NULL, 'swiped', false);
  END IF;
  -- What the service's transaction path reads of the caller (MyProfile's columns a like uses).
  v_caller := jsonb_build_object('id', v_me.id, 'name', v_me.name, 'gender', v_me.gender,
    'premium_until', v_me.premium_until);
  IF v_me.id = p_target THEN
    RETURN jsonb_build_object('me', v_caller, 'state', NULL, 'swiped', false);
  END IF;
  -- Free likes are counted; premium (premium_until after now) likes without limit.
  v_counting := p_liked = 1 AND NOT coalesce(v_me.premium_until > p_at, false);
  -- One probe of each swipe (mine, theirs) and of the match by its pair; the window's likes counted once.
  SELECT p.id, p.user_id, p.name, u.premium_until,
      mine.liked AS mine, mine.message AS my_message,
      theirs.liked AS theirs, theirs.message AS their_message, theirs.created_at AS their_at,
      (SELECT m.id FROM matches m WHERE m.profile_low = least(v_me.id, p_target)
        AND m.profile_high = greatest(v_me.id, p_target) AND m.unmatched_at IS NULL) AS match_id,
      (SELECT ph.file_name FROM photos ph WHERE ph.profile_id = p.id AND ph.moderation = 'clear'
        ORDER BY ph.position, ph.id LIMIT 1) AS photo,
      (SELECT ph.file_name FROM photos ph WHERE ph.profile_id = v_me.id AND ph.moderation = 'clear'
        ORDER BY ph.position, ph.id LIMIT 1) AS my_photo,
      used.n AS likes_used, used.oldest AS oldest_like
    INTO v_state
    FROM profiles p JOIN users u ON u.id = p.user_id
      LEFT JOIN swipes mine ON mine.swiper_id = v_me.id AND mine.target_id = p_target
      LEFT JOIN swipes theirs ON theirs.swiper_id = p_target AND theirs.target_id = v_me.id
      LEFT JOIN LATERAL (SELECT count(*) AS n, min(x.created_at) AS oldest FROM (
        SELECT c.created_at FROM swipes c WHERE c.swiper_id = v_me.id AND c.liked = 1 AND c.created_at > p_since
        UNION ALL SELECT un.created_at FROM swipe_undos un WHERE un.profile_id = v_me.id AND un.liked = 1
          AND un.created_at > p_since) x WHERE v_counting) used ON true
    WHERE p.id = p_target AND u.verified_at IS NOT NULL AND u.banned_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM blocks bl WHERE (bl.blocker_id = v_me.id AND bl.blocked_id = p.id)
        OR (bl.blocked_id = v_me.id AND bl.blocker_id = p.id))
      AND ((p.held_at IS NULL AND p.private_mode = 0 AND p.preferred_gender IN ('Any', v_me.gender))
        OR theirs.liked = 1);
  IF NOT FOUND THEN
    RETURN jsonb_build_object('me', v_caller, 'state', NULL, 'swiped', false);
  END IF;
  IF p_liked = 1 THEN
    v_plain := (v_state.mine IS NULL OR v_state.mine = 0) AND coalesce(v_state.theirs, 0) <> 1
      AND (p_notifies OR NOT coalesce(v_state.premium_until > p_at, false) OR NOT EXISTS (
        SELECT 1 FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = v_state.user_id AND (
          (u.telegram_id IS NOT NULL AND u.bot_started_at IS NOT NULL AND u.bot_unreachable_at IS NULL
            AND p.notifications = 1)
          OR (u.banned_at IS NULL AND p.push_notifications = 1
            AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = u.id)))))
      AND (NOT v_counting OR v_state.likes_used < p_like_limit);
  ELSE
    v_plain := v_state.mine IS NULL;
  END IF;
  IF v_plain THEN
    INSERT INTO swipes (swiper_id, target_id, liked, created_at, target_seen, message)
      VALUES (v_me.id, p_target, p_liked, p_at, 0, NULL)
      ON CONFLICT (swiper_id, target_id) DO UPDATE SET liked = excluded.liked, created_at = excluded.created_at,
        target_seen = 0, message = excluded.message;
    -- Whom it tells: the person liked; for a dislike, the caller when it answered a liker (off their likers).
    IF p_liked = 1 THEN
      INSERT INTO events (user_id, type, payload, created_at) VALUES (v_state.user_id, 'badges', '{}', p_at);
    ELSIF v_state.theirs = 1 THEN
      INSERT INTO events (user_id, type, payload, created_at) VALUES (p_user, 'badges', '{}', p_at);
    END IF;
  END IF;
  RETURN jsonb_build_object('me', v_caller, 'state', jsonb_build_object('id', v_state.id,
    'user_id', v_state.user_id, 'name', v_state.name, 'premium_until', v_state.premium_until,
    'photo', v_state.photo, 'my_photo', v_state.my_photo, 'mine', v_state.mine, 'my_message', v_state.my_message,
    'theirs', v_state.theirs, 'their_message', v_state.their_message, 'their_at', v_state.their_at,
    'match_id', v_state.match_id, 'likes', CASE WHEN v_counting THEN jsonb_build_object('count', v_state.likes_used,
      'oldest', v_state.oldest_like) END), 'swiped', v_plain);
END
$fn$`,
    )
    .execute(db);
}

/** The function as 2026_12_04_0900_plain_swipe_function made it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw('DROP FUNCTION iskra_plain_swipe(integer, integer, integer, text, text, integer, boolean)').execute(db);
  await previous(db);
}
