import { createHmac } from 'node:crypto';
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import { addSeconds, type Clock } from '../../clock.ts';
import type { DeferredSession, SessionAuth } from '../../http/context.ts';
import { deviceLabel } from './deviceLabel.ts';
import { deleteSession, findLiveSession, insertSession, touchProfileActivity, touchSession } from './repository.ts';
import { SessionCache, type CachedSession, type SessionChangeFeed, type SessionEndings } from './sessionCache.ts';
import { hashSessionId, newSessionId } from './sessionIds.ts';
import type { SessionTokens } from './tokens.ts';

/** A session checked by a request's own statement: the shapes live beside SessionAuth (server/http/context.ts). */
export type { CheckedSession, DeferredSession, SessionCheck } from '../../http/context.ts';

/** Sessions end 30 days after sign-in, whatever happens in between. */
export const sessionLifetimeSeconds = 30 * 24 * 60 * 60;

/** How stale a session's "last seen" may get before a request writes it again: one write per session per interval. */
export const lastSeenIntervalSeconds = 5 * 60;
/** `profiles.active_at` is written at most this often: others only ever learn the day (profiles/activity.ts). */
export const activityIntervalSeconds = 60 * 60;

/** Where a sign-in comes from: the client address (ctx.ip) and the browser's User-Agent. */
export interface SignInDevice {
  ip: string;
  userAgent: string;
}

/** The device of a request, for a sign-in it makes. */
export const deviceOf = (ctx: { ip: string; get(field: string): string }): SignInDevice => ({
  ip: ctx.ip,
  userAgent: ctx.get('User-Agent'),
});

/**
 * A session handed over from another one (the token page's one-time code) keeps that one's sign-in time and
 * end: a handover is no new sign-in, so it neither passes a "signed in lately" check (Reauthentication) nor
 * outlives the session it came from.
 */
export interface HandedOverSignIn {
  signedInAt: string;
  expiresAt: string;
}

export interface StartedSession {
  sessionId: string;
  expiresAt: Date;
  token: string;
}

/**
 * How long a process trusts a session it read without reading it again. Changes are pushed to every process
 * (sessionCache.ts), so this bounds only the damage of a change notice lost without the listening connection
 * failing; a few seconds still spare the database nearly every lookup of a busy tab.
 */
export const sessionCacheSeconds = 5;

/** Whether a session lookup may be answered from the cache ('cached') or must read the database ('fresh'). */
export type SessionRead = 'cached' | 'fresh';
const sessionCacheEntries = 20_000;

export class SessionService {
  /**
   * Only where every change to a session reaches this process: PostgreSQL with a LISTEN connection (several
   * processes share the database, and the triggers of 2026_11_24_2020_session_change_notices tell them all,
   * whatever path made the change). None on SQLite: its lookup is a read of a local file (microseconds, no
   * round trip), and the admin and job CLIs may change sessions from another process, which nothing would
   * tell.
   */
  private readonly cache: SessionCache | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly tokens: SessionTokens,
    private readonly clock: Clock,
    private readonly deviceSecret: string,
    private readonly changes?: SessionChangeFeed,
    /** Where this process's open event streams hear of the sessions it ends (the event bus). */
    private readonly endings?: SessionEndings,
  ) {
    if (changes) {
      const cache = new SessionCache(sessionCacheSeconds * 1000, sessionCacheEntries, () => clock.now().getTime());
      changes.subscribe((users) => (users === 'all' ? cache.clear() : cache.forgetUsers(users)));
      this.cache = cache;
    }
  }

  /**
   * A fresh id on every sign-in, so a session id planted before login is worth nothing after it. The row is
   * written with a keyed hash of the network address and browser it signed in from, so the moderation job
   * can see several accounts used from one device; neither the address nor the browser string is stored,
   * and the mark goes with the session when it expires. `handedOver`: see HandedOverSignIn.
   */
  async start(
    userId: UserId,
    device: SignInDevice,
    db: Kysely<Database> = this.db,
    handedOver?: HandedOverSignIn,
  ): Promise<StartedSession> {
    const now = this.clock.now();
    const sessionId = newSessionId();
    const expiresAt = handedOver ? new Date(handedOver.expiresAt) : addSeconds(now, sessionLifetimeSeconds);
    await insertSession(db, {
      id_hash: hashSessionId(sessionId),
      user_id: userId,
      created_at: handedOver?.signedInAt ?? now.toISOString(),
      expires_at: expiresAt.toISOString(),
      device_hash: createHmac('sha256', `device:${this.deviceSecret}`)
        .update(`${device.ip}|${device.userAgent}`)
        .digest('base64url'),
      device_label: deviceLabel(device.userAgent),
      last_seen_at: now.toISOString(),
    });
    // Signing in is being active; the session's next bookkeeping write is minutes away (resolveSessionId).
    await touchProfileActivity(db, userId, now.toISOString(), addSeconds(now, -activityIntervalSeconds).toISOString());
    return { sessionId, expiresAt, token: await this.tokens.sign(sessionId, userId, now, expiresAt) };
  }

  /**
   * `read`: 'cached' may answer from this process's cache (GET and HEAD: they change nothing); 'fresh' reads
   * the row whatever is cached, and is what every request that may write uses, so a session ended anywhere
   * is refused by it as soon as the ending has committed, with no notice to wait for. A fresh row still
   * refreshes the cache.
   */
  async resolveSessionId(
    sessionId: string,
    via: SessionAuth['via'],
    read: SessionRead = 'cached',
  ): Promise<SessionAuth | null> {
    const sessionHash = hashSessionId(sessionId);
    const cache = this.changes?.listening ? this.cache : undefined;
    const cached = read === 'cached' ? cache?.get(sessionHash) : undefined;
    if (cached) return { ...cached, via };
    const readStarted = cache?.readStarted() ?? 0;
    const now = this.clock.now();
    const row = await findLiveSession(this.db, sessionHash, now);
    if (!row || row.banned_at) return null;
    // Bookkeeping for the owner's devices list, not a change a GET makes to anything the user sees: at most
    // one write per session per lastSeenIntervalSeconds (and none while the session is cached), so reads
    // stay reads. Not awaited and its failure ignored: a busy or locked database must not slow or refuse a
    // read for it.
    if (!row.last_seen_at || row.last_seen_at < addSeconds(now, -lastSeenIntervalSeconds).toISOString()) {
      touchSession(this.db, sessionHash, now.toISOString()).catch(() => undefined);
      // The same bookkeeping marks the person active for others' decks: only when the read says the mark is
      // over an hour old (or missing, with a profile to mark), so an active user costs one profile write an hour.
      const since = addSeconds(now, -activityIntervalSeconds).toISOString();
      if (row.active_at !== null ? row.active_at < since : row.profile_id !== null) {
        touchProfileActivity(this.db, row.user_id, now.toISOString(), since).catch(() => undefined);
      }
    }
    const session: CachedSession = {
      userId: row.user_id,
      sessionHash,
      verified: row.verified_at !== null,
      language: row.language,
    };
    cache?.put(session, readStarted, new Date(row.expires_at).getTime());
    return { ...session, via };
  }

  /**
   * Whether a statement may check its request's session itself (deferred): on PostgreSQL, where the session's
   * own read is a round trip. Not on SQLite, whose read is a local one of microseconds.
   */
  get checksInStatements(): boolean {
    return this.db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * The session of `sessionId` for the request's own statement to check (DeferredSession), always as a fresh
   * read: only requests that may write fold it. `onAuth` hears the outcome, whichever way it is reached.
   */
  defer(sessionId: string, via: SessionAuth['via'], onAuth: (auth: SessionAuth | null) => void): DeferredSession {
    const sessionHash = hashSessionId(sessionId);
    const cache = () => (this.changes?.listening ? this.cache : undefined);
    let readStarted = 0;
    return {
      via,
      check: () => {
        readStarted = cache()?.readStarted() ?? 0;
        const now = this.clock.now();
        return {
          sessionHash,
          now: now.toISOString(),
          seenBefore: addSeconds(now, -lastSeenIntervalSeconds).toISOString(),
          activeBefore: addSeconds(now, -activityIntervalSeconds).toISOString(),
        };
      },
      accept: (row) => {
        let auth: SessionAuth | null = null;
        if (row) {
          const session: CachedSession = {
            userId: row.user_id,
            sessionHash,
            verified: row.verified,
            language: row.language,
          };
          cache()?.put(session, readStarted, new Date(row.expires_at).getTime());
          auth = { ...session, via };
        }
        onAuth(auth);
        return auth;
      },
      resolve: async () => {
        const auth = await this.resolveSessionId(sessionId, via, 'fresh');
        onAuth(auth);
        return auth;
      },
    };
  }

  /** The session id a token of ours carries, unless forged, malformed or expired (resolveToken's first step). */
  sessionIdOfToken(token: string): Promise<string | null> {
    return this.tokens.verify(token, this.clock.now());
  }

  /**
   * After this process changed a user's session facts (its language, say) without settling: its next GET
   * reads the row again instead of a cached copy that the change notice has yet to reach.
   */
  forgetUser(userId: UserId): void {
    this.cache?.forgetUsers([userId]);
  }

  /**
   * Call after a change to sessions or their facts has committed and before answering: returns once this
   * process's listener has heard every notice committed so far (our own NOTIFY heard back), so this
   * process's cache has dropped the change. The other processes' listeners were signalled by PostgreSQL at
   * the same commits and normally apply the change within milliseconds, but nothing waits for them: a
   * process under load may still answer a GET from its cache a little later (at most one cache lifetime,
   * sessionCacheSeconds, if a notice were lost without the connection failing). Requests that may write
   * never use the cache (resolveSessionId), so none of them acts on an ended session, on any process. A
   * dropped or unanswering listener clears the cache and stops its use until LISTEN is back.
   */
  async settle(): Promise<void> {
    if (this.cache && this.changes?.listening) await this.changes.settle();
  }

  /**
   * Call instead of settle() after a commit that ended sessions of these users (or banned them): this
   * process's open event streams of theirs read their sessions again at once and close if they ended (the
   * other processes' streams hear it from the database, PostgreSQL), then this process settles.
   */
  async ended(userIds: readonly UserId[]): Promise<void> {
    this.endings?.sessionsChanged(userIds);
    await this.settle();
  }

  async resolveToken(token: string, read: SessionRead = 'cached'): Promise<SessionAuth | null> {
    const sessionId = await this.sessionIdOfToken(token);
    return sessionId ? this.resolveSessionId(sessionId, 'bearer', read) : null;
  }

  /**
   * Whether a token that is no live session was once one: signed by us, its session since ended or
   * expired. A forged or malformed token is not (csrf.ts answers the two apart).
   */
  async wasSignedIn(token: string): Promise<boolean> {
    return this.tokens.signedByUs(token, this.clock.now());
  }

  /** Signs this session out everywhere: refused at once by every request that may write, and by this process (settle). */
  async end(session: Pick<SessionAuth, 'sessionHash' | 'userId'>): Promise<void> {
    await deleteSession(this.db, session.sessionHash);
    await this.ended([session.userId]);
  }
}
