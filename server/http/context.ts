import type { ParameterizedContext } from 'koa';
import type Router from '@koa/router';
import type { UserId } from '../../db/schema.ts';

export interface SessionAuth {
  /** The account (`users.id`), not its profile. */
  userId: UserId;
  /** SHA-256 of the session id, the key of the sessions row. */
  sessionHash: string;
  /** How this request presented the session: the cookie needs CSRF protection, a bearer token does not. */
  via: 'cookie' | 'bearer';
  verified: boolean;
  language: 'ru' | 'en';
}

/**
 * What a statement that checks the session of its request itself needs (iskra_session_swipe): the session's
 * key, the time it must still be live at, and the thresholds of the bookkeeping (resolveSessionId) it writes.
 */
export interface SessionCheck {
  sessionHash: string;
  now: string;
  /** "Last seen" is written when older than this (lastSeenIntervalSeconds). */
  seenBefore: string;
  /** The profile's activity mark is written when older than this (activityIntervalSeconds). */
  activeBefore: string;
}

/** What such a statement answers of a live session (its account not banned); null for any other. */
export interface CheckedSession {
  user_id: UserId;
  expires_at: string;
  verified: boolean;
  language: SessionAuth['language'];
}

/**
 * A request's session left unread by the session loader for the request's own statement to check
 * (server/http/auth.ts, PostgreSQL, the routes that fold it): one round trip where there were two. Whatever
 * answers it (`accept` with that statement's answer, or `resolve`, a read of its own for a path that cannot
 * fold it) reports the outcome to the request (`onAuth`) and refreshes the cache as a fresh read does.
 */
export interface DeferredSession {
  readonly via: SessionAuth['via'];
  check(): SessionCheck;
  accept(session: CheckedSession | null): SessionAuth | null;
  resolve(): Promise<SessionAuth | null>;
}

export interface AppState {
  requestId: string;
  auth: SessionAuth | null;
  /**
   * A request that may write, sent with a bearer token of ours whose session has ended (signed out
   * elsewhere, expired, banned): answered 401 before the CSRF check (csrf.ts).
   */
  endedBearer?: boolean;
  /**
   * The request's session, left unread for the route's own statement to check (sessionLoader, on the paths
   * that fold it); `auth` is set once something has answered it, and this is then cleared.
   */
  deferredSession?: DeferredSession;
  /** The path as the request log records it, when the real one carries a secret (an unsubscribe token). */
  logPath?: string;
  /**
   * The SHA-256 sources (`'sha256-…'`) of the inline scripts of the page being sent (index.html carries
   * boot.js inline, issue 41): added to its CSP's script-src by securityHeaders.ts.
   */
  scriptHashes?: string[];
  /** An admin's name for the audit log (`email:…`, `telegram:…`), set by the console's gate (features/admin). */
  admin?: string;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppRouter = Router<AppState>;
