import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Logger } from '../../logger.ts';
import { eventIdsOfUsersAfter, newestEventId } from './repository.ts';

/** How often a process reads by cursor while its doorbells arrive (the net under a doorbell lost to a kill -9). */
export const sweepMs = 5000;
/** How often while they cannot arrive (the LISTEN connection or the broker is down): the streams' only news then. */
export const pollingSweepMs = 1000;
/**
 * How far back each read looks: a row is numbered when inserted but seen when its transaction commits, so an
 * id below one already read may still appear (liveStream.ts, lateCommitMs). Three normal sweeps span it.
 */
const lookbackMs = 15_000;
/** Users per statement: well under every bound-variable limit. */
const usersPerRead = 1000;
const rowsPerRead = 5000;

export interface SweepOptions {
  db: Kysely<Database>;
  logger: Logger;
  /** The users whose streams this process holds. */
  users: () => UserId[];
  /** Wakes a user's streams with the ids found: a stream that has them all reads nothing. */
  wake: (userId: UserId, ids: readonly number[]) => void;
}

/**
 * Reads, for the users whose streams this process holds, the ids of the event rows written lately, and wakes
 * those streams for any id this sweep has not handed them yet. The doorbells (NOTIFY, Redis) only say "read
 * now"; rows are the truth, so a row whose doorbell never rang (its writer killed between the commit and the
 * tick, a NOTIFY lost with its connection, the broker down) still reaches its streams, at the next sweep:
 * every `sweepMs` normally, every `pollingSweepMs` while the doorbells cannot be heard, and at once when the
 * hearing comes back or a doorbell says "everyone" (a set of users too large for one NOTIFY). A stream
 * dedupes by id (liveStream.ts), so a wake for a row already sent costs it a set lookup, not a read.
 */
export class EventSweep {
  /** Highest event id known to exist: from rows read and from the doorbells' cursors. */
  private top = 0;
  /** The top at each sweep, oldest first: the read starts at the newest one older than `lookbackMs`. */
  private marks: { at: number; top: number }[] = [];
  /** Per user, the ids above the read's start already handed to their streams. */
  private readonly handed = new Map<UserId, Set<number>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private polling = false;
  /** Before start() there is no starting mark: a sweep then would read every user's events from id 0. */
  private started = false;
  private stopped = false;

  constructor(private readonly options: SweepOptions) {}

  /**
   * Starts at the newest row: this process has no stream yet, and a stream reads its own backlog on opening.
   * The doorbells' connections may come up (setPolling) before this; their sweeps wait for it.
   */
  async start(): Promise<void> {
    const newest = await newestEventId(this.options.db);
    if (newest > this.top) this.top = newest;
    this.marks = [{ at: Date.now(), top: this.top }];
    this.started = true;
    this.arm();
  }

  /** A doorbell's cursor: rows up to it exist, so later reads start no lower than where it pointed a while ago. */
  heard(cursor: number): void {
    if (cursor > this.top) this.top = cursor;
  }

  /** Whether the doorbells cannot be heard now: then the sweep is the streams' only news, and runs often. */
  setPolling(polling: boolean): void {
    if (this.polling === polling) return;
    this.polling = polling;
    this.arm();
    if (!polling) this.now();
  }

  get isPolling(): boolean {
    return this.polling;
  }

  /** A sweep as soon as possible (one under way is followed by another). */
  now(): void {
    if (this.stopped || !this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sweep()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'event bus: reading events by cursor failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.now();
        }
      });
  }

  /** Waits for the sweep under way, if any (tests, close). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private arm(): void {
    clearInterval(this.timer);
    if (this.stopped || !this.started) return;
    this.timer = setInterval(() => this.now(), this.polling ? pollingSweepMs : sweepMs);
    this.timer.unref();
  }

  private async sweep(): Promise<void> {
    const at = Date.now();
    const older = this.marks.filter((m) => m.at <= at - lookbackMs);
    const from = (older.at(-1) ?? this.marks[0] ?? { top: this.top }).top;
    // Keep the newest older mark (the next start) and everything after it.
    if (older.length > 1) this.marks = this.marks.slice(older.length - 1);
    const users = this.options.users();
    let top = this.top;
    for (let start = 0; start < users.length; start += usersPerRead) {
      const slice = users.slice(start, start + usersPerRead);
      let after = from;
      for (;;) {
        const rows = await eventIdsOfUsersAfter(this.options.db, slice, after, rowsPerRead);
        const fresh = new Map<UserId, number[]>();
        for (const row of rows) {
          let handed = this.handed.get(row.user_id);
          if (!handed) this.handed.set(row.user_id, (handed = new Set()));
          if (handed.has(row.id)) continue;
          handed.add(row.id);
          const ids = fresh.get(row.user_id);
          if (ids) ids.push(row.id);
          else fresh.set(row.user_id, [row.id]);
        }
        for (const [user, ids] of fresh) this.options.wake(user, ids);
        after = rows.at(-1)?.id ?? after;
        if (after > top) top = after;
        if (rows.length < rowsPerRead) break;
      }
    }
    if (top > this.top) this.top = top;
    this.marks.push({ at, top: this.top });
    // What lies at or below the next read's start is never read again: forgotten, as are users gone from here.
    const next = (this.marks.filter((m) => m.at <= Date.now() - lookbackMs).at(-1) ?? this.marks[0])?.top ?? from;
    const here = new Set(users);
    for (const [user, handed] of this.handed) {
      if (!here.has(user)) {
        this.handed.delete(user);
        continue;
      }
      for (const id of handed) if (id <= next) handed.delete(id);
      if (handed.size === 0) this.handed.delete(user);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.settled();
  }
}
