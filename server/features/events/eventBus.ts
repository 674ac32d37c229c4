import { EventEmitter } from 'node:events';
import type { EphemeralEvent } from '../../contract/events.ts';
import type { UserId } from '../../../db/schema.ts';
import type { SessionChangeFeed } from '../sessions/index.ts';

/**
 * Tells open event streams that a user has new events (the events themselves are rows, read by the
 * stream). In-process for SQLite; when several server processes share one PostgreSQL database, through a
 * doorbell (PostgreSQL LISTEN/NOTIFY, postgresEventBus.ts, or Redis pub/sub, redisEventBus.ts), so a message
 * sent through one process reaches a tab connected to another.
 */
export interface EventBus {
  /**
   * Wakes these users' streams, after the transaction that wrote their rows has committed: this process's at
   * once; the others' through a doorbell rung at most once per tick (PostgreSQL NOTIFY, or Redis), which the
   * caller does not wait for (a lost doorbell is made good by the listeners' reads by cursor, eventSweep.ts).
   */
  publish(userIds: readonly UserId[]): Promise<void>;
  /** `ids`, when given, are the rows the wake is about: a stream that has them all need not read. */
  subscribe(userId: UserId, listener: WakeListener): () => void;
  /** How this process hears the others now (`/api/health`): 'polling' while their doorbells cannot reach it. */
  fanout(): FanoutStatus;
  /**
   * Hands an event that is never stored (someone typing) to these users' open streams, in this process and,
   * when processes share a database, the others: through a NOTIFY on PostgreSQL alone, or on the users' Redis
   * channels with REDIS_URL (the message carries the event itself). A stream not open at that moment, or one
   * whose process does not hear the message (its doorbell connection down), misses it: nothing replays it,
   * which is what it is for.
   */
  signal(userIds: readonly UserId[], event: EphemeralEvent): Promise<void>;
  /** Hears the signals to one user (one listener per open stream). */
  onSignal(userId: UserId, listener: (event: EphemeralEvent) => void): () => void;
  close(): Promise<void>;
  /** The database's session change notices, when this bus hears the database (PostgreSQL); none in process. */
  readonly sessionChanges?: SessionChangeFeed | undefined;
  /**
   * This process has just ended sessions of these users (or banned them): its open event streams of theirs
   * re-check their sessions now. The only way a change is heard on SQLite; on PostgreSQL the database's
   * triggers tell every process as well (sessionChanges), this one included, a moment later.
   */
  sessionsChanged(userIds: readonly UserId[]): void;
  /**
   * Hears sessionsChanged of this process and, on PostgreSQL, every process's session change notices;
   * 'all' when some may have been missed (the LISTEN connection dropped or came back).
   */
  onSessionsChanged(listener: SessionChangeListener): () => void;
}

export type WakeListener = (ids?: readonly number[]) => void;

/** In process (SQLite), PostgreSQL LISTEN/NOTIFY, Redis pub/sub, or reading rows by cursor while neither answers. */
export type FanoutStatus = 'in_process' | 'postgres' | 'redis' | 'polling';

export type SessionChangeListener = (users: readonly UserId[] | 'all') => void;

export class InProcessEventBus implements EventBus {
  protected readonly emitter = new EventEmitter();
  /** Apart from `emitter`: a wake-up carries nothing, a signal carries its event. */
  protected readonly signals = new EventEmitter();
  private readonly sessionWatchers = new Set<SessionChangeListener>();

  constructor() {
    // One listener per open tab: thousands are normal, not a leak.
    this.emitter.setMaxListeners(0);
    this.signals.setMaxListeners(0);
  }

  signal(userIds: readonly UserId[], event: EphemeralEvent): Promise<void> {
    this.emitSignal(userIds, event);
    return Promise.resolve();
  }

  protected emitSignal(userIds: readonly UserId[], event: EphemeralEvent): void {
    for (const id of new Set(userIds)) this.signals.emit(String(id), event);
  }

  onSignal(userId: UserId, listener: (event: EphemeralEvent) => void): () => void {
    this.signals.on(String(userId), listener);
    return () => this.signals.off(String(userId), listener);
  }

  publish(userIds: readonly UserId[]): Promise<void> {
    for (const id of new Set(userIds)) this.emitter.emit(String(id));
    return Promise.resolve();
  }

  subscribe(userId: UserId, listener: WakeListener): () => void {
    this.emitter.on(String(userId), listener);
    return () => this.emitter.off(String(userId), listener);
  }

  fanout(): FanoutStatus {
    return 'in_process';
  }

  /** The users with a stream (a wake listener) in this process. */
  protected localUsers(): UserId[] {
    return this.emitter.eventNames().map((name) => Number(name) as UserId);
  }

  sessionsChanged(userIds: readonly UserId[]): void {
    if (userIds.length > 0) this.tellWatchers(userIds);
  }

  onSessionsChanged(listener: SessionChangeListener): () => void {
    this.sessionWatchers.add(listener);
    return () => this.sessionWatchers.delete(listener);
  }

  protected tellWatchers(users: readonly UserId[] | 'all'): void {
    for (const listener of this.sessionWatchers) listener(users);
  }

  close(): Promise<void> {
    this.emitter.removeAllListeners();
    this.signals.removeAllListeners();
    this.sessionWatchers.clear();
    return Promise.resolve();
  }
}
