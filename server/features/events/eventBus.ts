import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { liveEventPayloads, type EphemeralEvent } from '../../contract/events.ts';
import type { Logger } from '../../logger.ts';
import type { UserId } from '../../../db/schema.ts';
import type { SessionChangeFeed } from '../sessions/index.ts';
import { noticeChannel, quotedChannel } from './noticeChannels.ts';

/**
 * Tells open event streams that a user has new events (the events themselves are rows, read by the
 * stream). In-process for SQLite; through PostgreSQL LISTEN/NOTIFY when several server processes share
 * one database, so a message sent through one process reaches a tab connected to another.
 */
export interface EventBus {
  publish(userIds: readonly UserId[]): Promise<void>;
  subscribe(userId: UserId, listener: () => void): () => void;
  /**
   * Hands an event that is never stored (someone typing) to these users' open streams, in this process and,
   * on PostgreSQL, the others (the notice carries the event itself). A stream not open at that moment, or
   * one whose process does not hear the notice, misses it: nothing replays it, which is what it is for.
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

  subscribe(userId: UserId, listener: () => void): () => void {
    this.emitter.on(String(userId), listener);
    return () => this.emitter.off(String(userId), listener);
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

export class PostgresEventBus extends InProcessEventBus {
  private listener: pg.Client | undefined;
  private closed = false;
  private readonly sessionsChannel: string;
  private readonly sessionListeners = new Set<(users: readonly UserId[] | 'all') => void>();
  /** Our own settle notices not heard back yet, by payload. */
  private readonly settling = new Map<string, () => void>();
  private readonly settlePrefix = `sync:${randomBytes(6).toString('hex')}:`;
  private settleCount = 0;

  private readonly channel: string;
  private readonly signalsChannel: string;
  /** Tags this process's event notices (publish). */
  private readonly origin = randomBytes(6).toString('hex');

  private constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly logger: Logger,
  ) {
    super();
    // Per schema, so databases shared by several deployments (or test runs) stay apart; the sessions channel
    // is named by the triggers of db/migrations/2026_11_24_2020_session_change_notices.ts the same way.
    this.channel = noticeChannel('events', schema);
    this.sessionsChannel = noticeChannel('sessions', schema);
    this.signalsChannel = noticeChannel('signals', schema);
  }

  static async start(url: string, schema: string, logger: Logger): Promise<PostgresEventBus> {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    // An idle connection's failure is emitted on the pool; unheard, it would end the process.
    pool.on('error', (err) => logger.warn({ err }, 'event bus: an idle connection failed; the pool opens another'));
    const bus = new PostgresEventBus(pool, schema, logger);
    await bus.listen(url);
    return bus;
  }

  /**
   * The sessions table's change notices, heard on the same connection as the events. While that connection
   * is down nothing is heard, so `listening` turns false (the session cache is skipped) and every subscriber
   * is told 'all' when it drops and again once listening resumes (what changed in between was missed).
   */
  readonly sessionChanges: SessionChangeFeed = {
    listening: false,
    subscribe: (listener) => {
      this.sessionListeners.add(listener);
      return () => this.sessionListeners.delete(listener);
    },
    settle: () => this.settle(),
  };

  private tellSessions(users: readonly UserId[] | 'all'): void {
    for (const listener of this.sessionListeners) listener(users);
    // The open streams too: a session ended through another process closes its streams here.
    this.tellWatchers(users);
  }

  private setListener(client: pg.Client | undefined): void {
    this.listener = client;
    (this.sessionChanges as { listening: boolean }).listening = client !== undefined;
    this.tellSessions('all');
  }

  /** `retrying`: a reconnection, which tries again after a failure (the first connection throws instead). */
  private async listen(url: string, retrying = false): Promise<void> {
    // A reconnection scheduled before close() must not open a connection nobody will end.
    if (this.isClosed()) return;
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    let lost = !retrying;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.setListener(undefined);
      if (this.closed) return;
      this.logger.error({ err: error }, 'event bus: LISTEN connection failed, reconnecting');
      setTimeout(() => void this.listen(url, true).catch(() => undefined), 1000).unref();
    };
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      if (message.channel === this.signalsChannel) {
        this.hearSignal(payload);
      } else if (message.channel !== this.sessionsChannel) {
        // `ids,~origin`: our own were delivered when published (see publish). A list without the tag is a
        // process of an earlier version's, during a rolling deploy.
        const ids = payload.split(',');
        const tag = ids.at(-1);
        if (tag?.startsWith('~')) {
          if (tag.slice(1) === this.origin) return;
          ids.pop();
        }
        for (const id of ids) if (id) this.emitter.emit(id);
      } else if (payload.startsWith('sync:')) {
        this.settling.get(payload)?.();
      } else {
        this.tellSessions(payload.split(',').flatMap((id) => (id ? [Number(id) as UserId] : [])));
      }
    });
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${quotedChannel(this.channel)}`);
      await client.query(`LISTEN ${quotedChannel(this.sessionsChannel)}`);
      await client.query(`LISTEN ${quotedChannel(this.signalsChannel)}`);
    } catch (error) {
      onLost(error instanceof Error ? error : undefined);
      await client.end().catch(() => undefined);
      throw error;
    }
    lost = false;
    if (this.isClosed()) {
      await client.end().catch(() => undefined);
      return;
    }
    this.setListener(client);
  }

  /**
   * A NOTIFY of our own on the sessions channel, waited for on our LISTEN connection. Every listener hears
   * the notices of committed transactions in commit order, so once ours is back here every change committed
   * before it has reached this process, and the other processes' listeners were signalled no later than
   * ours. The send and the echo share one deadline (`settleTimeoutMs`), so a slow or hung query cannot hold
   * the request. Only a notice sent and not heard back in time means the listener is lost (it is ended:
   * cache cleared and skipped until it is back); a send that failed or did not finish in time says nothing
   * about the listener, so this process's cache is only cleared (nothing was confirmed).
   */
  private async settle(): Promise<boolean> {
    const client = this.listener;
    if (!client) return false;
    this.settleCount += 1;
    const token = `${this.settlePrefix}${this.settleCount}`;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), settleTimeoutMs);
      // A pending settle alone must not keep a stopping process alive.
      timer.unref();
    });
    const heard = new Promise<'heard'>((resolve) => this.settling.set(token, () => resolve('heard')));
    const send = this.pool.query('select pg_notify($1, $2)', [this.sessionsChannel, token]).then(() => 'sent' as const);
    // A send still running at the deadline may fail later, when nobody awaits it any more.
    send.catch(() => undefined);
    try {
      const first = await Promise.race([heard, send, late]);
      if (first === 'heard') return true;
      if (first === 'late') {
        // The query is slow or stuck, which says nothing of the listener: only this process's cache goes.
        this.logger.error('event bus: a session notice could not be sent in time');
        this.tellSessions('all');
        return false;
      }
      if ((await Promise.race([heard, late])) === 'heard') return true;
      this.logger.error('event bus: a session notice was not heard back, reconnecting');
      if (this.listener === client) this.setListener(undefined);
      await client.end().catch(() => undefined);
      return false;
    } catch (error) {
      this.logger.error({ err: error }, 'event bus: could not send a session notice');
      this.tellSessions('all');
      return false;
    } finally {
      clearTimeout(timer);
      this.settling.delete(token);
    }
  }

  /**
   * This process's own streams are woken at once, the others' through NOTIFY. Waiting for our own notice to
   * come back cost a query and the listener's turn through PostgreSQL (publish to event, p50 3.5 ms against
   * 3.0 ms now, bench/sse.ts), and a stream here heard nothing while the LISTEN connection was down.
   * The notice is tagged with this process, which skips it when it comes back. The tag is a last element of
   * the list that no user id can be (`~` and the origin), so a process of the earlier version, which reads
   * the list as ids only, wakes every user of it and a listener for `~...` that nobody is.
   */
  override async publish(userIds: readonly UserId[]): Promise<void> {
    const ids = [...new Set(userIds)];
    await super.publish(ids);
    for (const payload of notifyPayloads(ids))
      await this.pool.query('select pg_notify($1, $2)', [this.channel, `${payload},~${this.origin}`]);
  }

  /**
   * As publish: this process's streams at once, the others' through a NOTIFY on a channel of its own, whose
   * payload is the event itself (`{origin, to, event}` as JSON), since there is no row to read. A signal goes
   * to a pair's other side, so one notice holds it far under PostgreSQL's 8000 bytes.
   */
  override async signal(userIds: readonly UserId[], event: EphemeralEvent): Promise<void> {
    const to = [...new Set(userIds)];
    this.emitSignal(to, event);
    const notice: SignalNotice = { origin: this.origin, to, event };
    await this.pool.query('select pg_notify($1, $2)', [this.signalsChannel, JSON.stringify(notice)]);
  }

  /** A signal notice: our own were delivered when sent; anything that does not parse is dropped. */
  private hearSignal(payload: string): void {
    const notice = parseSignalNotice(payload);
    if (!notice || notice.origin === this.origin) return;
    this.emitSignal(notice.to, notice.event);
  }

  /** A method, not the field: close() may run while listen() awaits, which TypeScript's narrowing does not see. */
  private isClosed(): boolean {
    return this.closed;
  }

  override async close(): Promise<void> {
    this.closed = true;
    await super.close();
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}

/** How long a settle waits for its own notice: far above a healthy round trip, short enough to answer the request. */
const settleTimeoutMs = 2000;

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: a long list of ids (a ban, a deletion) goes in
 * several, each under this with the origin tag (14 characters) after it.
 */
const maxNotifyPayload = 7900;

function notifyPayloads(ids: readonly UserId[]): string[] {
  const payloads: string[] = [];
  let current = '';
  for (const id of ids) {
    const next = current ? `${current},${id}` : String(id);
    if (next.length > maxNotifyPayload) {
      payloads.push(current);
      current = String(id);
    } else {
      current = next;
    }
  }
  if (current) payloads.push(current);
  return payloads;
}

interface SignalNotice {
  origin: string;
  to: UserId[];
  event: EphemeralEvent;
}

function parseSignalNotice(payload: string): SignalNotice | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { origin, to, event } = value as Record<string, unknown>;
  if (typeof origin !== 'string' || !Array.isArray(to) || !to.every((id) => Number.isInteger(id))) return null;
  if (typeof event !== 'object' || event === null || (event as { type?: unknown }).type !== 'typing') return null;
  const parsed = liveEventPayloads.typing.safeParse((event as { payload?: unknown }).payload);
  return parsed.success ? { origin, to: to as UserId[], event: { type: 'typing', payload: parsed.data } } : null;
}
