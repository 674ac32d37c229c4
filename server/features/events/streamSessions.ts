import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import { liveSessionHashes } from '../sessions/index.ts';
import type { EventBus } from './eventBus.ts';

interface Watched {
  userId: UserId;
  sessionHash: string;
  end: () => void;
}

/** Sessions read in one statement: a few hundred ids keep it well under every bound-variable limit. */
const hashesPerRead = 500;

/**
 * The sessions of this process's open event streams. A stream outlives the request that opened it, so the
 * session that request was checked against may end while it stays open (a sign-out elsewhere, a password
 * change or reset, a ban, the account deleted); its stream then closes, so private messages stop reaching
 * a device the owner has signed out. Each stream's session is read again:
 * - when this process ends sessions of its user (EventBus.sessionsChanged) and, on PostgreSQL, when any
 *   process does (the sessions triggers' notices; 'all' after the listening connection dropped);
 * - once just after the stream opens (its session may have ended while the request was answered);
 * - every heartbeat, for what no notice tells: `npm run admin` on SQLite, expiry, a lost notice.
 * Checks due together go in one statement (a process coming back sends thousands of streams here at once).
 * Closing is what the app expects of an ended session: its EventSource reconnects, gets 401 and signs out.
 */
export class StreamSessions {
  private readonly byUser = new Map<UserId, Set<Watched>>();
  private size = 0;
  private due = new Set<Watched>();
  private flushing = false;
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    bus: Pick<EventBus, 'onSessionsChanged'>,
    private readonly logger: Logger,
    /** How often every stream writes its heartbeat, and how often every stream's session is read again. */
    readonly heartbeatMs: number,
  ) {
    bus.onSessionsChanged((users) => this.recheck(users));
  }

  /** Watches a stream's session until the returned function is called; `end` closes the stream. */
  watch(userId: UserId, sessionHash: string, end: () => void): () => void {
    const watched: Watched = { userId, sessionHash, end };
    const ofUser = this.byUser.get(userId);
    if (ofUser) ofUser.add(watched);
    else this.byUser.set(userId, new Set([watched]));
    this.size += 1;
    if (!this.sweep) {
      this.sweep = setInterval(() => this.recheck('all'), this.heartbeatMs);
      // The sweep alone must not keep a stopping process alive.
      this.sweep.unref();
    }
    this.queue([watched]);
    return () => {
      const set = this.byUser.get(userId);
      if (!set?.delete(watched)) return;
      this.due.delete(watched);
      if (set.size === 0) this.byUser.delete(userId);
      this.size -= 1;
      if (this.size === 0) {
        clearInterval(this.sweep);
        this.sweep = undefined;
      }
    };
  }

  /** Reads the sessions of these users' streams (of every stream: 'all') again, closing those that ended. */
  recheck(users: readonly UserId[] | 'all'): void {
    if (users === 'all') {
      for (const set of this.byUser.values()) this.queue(set);
    } else {
      for (const user of users) {
        const set = this.byUser.get(user);
        if (set) this.queue(set);
      }
    }
  }

  private queue(streams: Iterable<Watched>): void {
    for (const watched of streams) this.due.add(watched);
    if (this.flushing || this.due.size === 0) return;
    this.flushing = true;
    // After the notices that arrived in this turn: one read for them all.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    try {
      while (this.due.size > 0) {
        const batch = [...this.due].slice(0, hashesPerRead);
        for (const watched of batch) this.due.delete(watched);
        const live = await liveSessionHashes(
          this.db,
          [...new Set(batch.map((w) => w.sessionHash))],
          this.clock.now().toISOString(),
        );
        for (const watched of batch) if (!live.has(watched.sessionHash)) watched.end();
      }
    } catch (error) {
      // The next notice or heartbeat tries again; meanwhile an ended session's stream reads no events (eventsAfter).
      this.logger.warn({ err: error }, 'event stream: session check failed');
      this.due.clear();
    } finally {
      this.flushing = false;
    }
    // Queued while the last read was under way.
    if (this.due.size > 0) this.queue([]);
  }
}
