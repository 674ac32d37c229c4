import type { UserId } from '../../../db/schema.ts';
import type { SessionAuth } from '../../http/context.ts';

/**
 * Where a process hears that sessions changed in the database: the users whose sessions ended or whose
 * session facts (verified, language, banned) changed, or 'all' when some may have been missed (the
 * listening connection dropped). PostgreSQL's LISTEN/NOTIFY (events/eventBus.ts) is the one there is.
 */
export interface SessionChangeFeed {
  /** False while nothing is listening (connecting, reconnecting): the cache must not be trusted then. */
  readonly listening: boolean;
  subscribe(listener: (users: readonly UserId[] | 'all') => void): () => void;
  /**
   * Resolves once every change committed before the call has reached this process's listener (a NOTIFY of
   * our own, heard back: PostgreSQL delivers notifications in commit order). False when that could not be
   * confirmed in time; the feed has then told its subscribers 'all'.
   */
  settle(): Promise<boolean>;
}

/** Where a process tells its own open event streams that it ended sessions of these users (the event bus). */
export interface SessionEndings {
  sessionsChanged(userIds: readonly UserId[]): void;
}

/** The session facts a request needs, without how this request presented the session. */
export type CachedSession = Omit<SessionAuth, 'via'>;

interface Entry {
  session: CachedSession;
  expiresAt: number;
}

/**
 * Sessions read in the last few seconds, so a burst of GETs from one tab reads its session once (requests
 * that may write read it every time: sessions/service.ts).
 * Bounded (the oldest entry goes first) and short-lived: if a change notice were ever lost without the
 * listening connection failing (a half-open TCP connection), a revoked session would be served for at most
 * one `ttlMs`.
 *
 * A read that started before a change to its user must not put its (older) answer in after the change has
 * been applied here: every change takes a new sequence number, and a read stores its row only when no
 * change to that user (or a clear) came after the read began.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly hashesOf = new Map<UserId, Set<string>>();
  private readonly changedAt = new Map<UserId, number>();
  private sequence = 0;
  private clearedAt = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(sessionHash: string): CachedSession | undefined {
    const entry = this.entries.get(sessionHash);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.session;
    this.remove(sessionHash);
    return undefined;
  }

  /** Taken before reading a session from the database; `put` needs it. */
  readStarted(): number {
    return this.sequence;
  }

  /** `expiresAt`: the session's own end (ms), which the entry does not outlive. */
  put(session: CachedSession, readStartedAt: number, expiresAt: number): void {
    if (readStartedAt < this.clearedAt || (this.changedAt.get(session.userId) ?? 0) > readStartedAt) return;
    this.remove(session.sessionHash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.remove(oldest.value);
    }
    this.entries.set(session.sessionHash, { session, expiresAt: Math.min(expiresAt, this.now() + this.ttlMs) });
    const hashes = this.hashesOf.get(session.userId);
    if (hashes) hashes.add(session.sessionHash);
    else this.hashesOf.set(session.userId, new Set([session.sessionHash]));
  }

  forgetUsers(users: readonly UserId[]): void {
    this.sequence += 1;
    for (const user of users) {
      this.changedAt.set(user, this.sequence);
      for (const hash of this.hashesOf.get(user) ?? []) this.entries.delete(hash);
      this.hashesOf.delete(user);
    }
    // The marks only matter to reads still in flight; past this size, a clear stands in for them all.
    if (this.changedAt.size > this.maxEntries) this.clear();
  }

  clear(): void {
    this.sequence += 1;
    this.clearedAt = this.sequence;
    this.entries.clear();
    this.hashesOf.clear();
    this.changedAt.clear();
  }

  private remove(sessionHash: string): void {
    const entry = this.entries.get(sessionHash);
    if (!entry) return;
    this.entries.delete(sessionHash);
    const hashes = this.hashesOf.get(entry.session.userId);
    hashes?.delete(sessionHash);
    if (hashes?.size === 0) this.hashesOf.delete(entry.session.userId);
  }
}
