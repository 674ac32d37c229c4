import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../../db/client.ts';
import type { UserId } from '../../../db/schema.ts';
import { liveEventPayloads, type EphemeralEvent } from '../../contract/events.ts';
import type { Logger } from '../../logger.ts';
import type { SessionChangeFeed } from '../sessions/index.ts';
import { InProcessEventBus, type FanoutStatus } from './eventBus.ts';
import { EventSweep } from './eventSweep.ts';
import { noticeChannel, quotedChannel } from './noticeChannels.ts';
import { notify, notifyWithCursor } from './repository.ts';
import { doorbellTickMs, TickBatch } from './tickBatch.ts';

/**
 * The event bus of processes sharing one PostgreSQL database. Events are rows written in the writer's
 * transaction; NOTIFY is only a doorbell: each process rings at most one per tick (tickBatch.ts), in its own
 * autocommit transaction after the writers' have committed, naming the users touched and the newest event
 * id, and every listener wakes the streams it holds for those users, which read their rows by cursor. One
 * NOTIFY per publish made every publish a transaction through PostgreSQL's cluster-wide NOTIFY lock (held
 * through the WAL flush); a tick's worth of publishes now shares one. A doorbell lost (its writer killed
 * between the commit and the tick, the LISTEN connection down) costs a delay, not an event: each process
 * also reads the rows of its streams' users by cursor (eventSweep.ts), often while it cannot listen and at
 * once when it listens again. Subclassed by the Redis bus, which keeps the sessions notices here and rings
 * its doorbells through Redis.
 */
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
  /** Tags this process's notices, which it skips when they come back (its own streams were woken at once). */
  protected readonly origin = randomBytes(6).toString('hex');
  protected readonly sweep: EventSweep;
  private readonly doorbell: TickBatch<UserId>;
  private readonly signalBatch: TickBatch<SignalNotice>;

  protected constructor(
    /** The bus's own small pool (NOTIFYs, sweeps), apart from the requests' so a busy pool never holds a doorbell. */
    protected readonly handle: DatabaseHandle,
    private readonly url: string,
    schema: string,
    protected readonly logger: Logger,
    /** Whether events and signals go through NOTIFY (false: through a broker, the subclass). */
    private readonly notices: boolean,
    /** How long after a doorbell the next may ring (tickBatch.ts). */
    doorbellTick = doorbellTickMs,
  ) {
    super();
    // Per schema, so databases shared by several deployments (or test runs) stay apart; the sessions channel
    // is named by the triggers of db/migrations/2026_11_24_2020_session_change_notices.ts the same way.
    this.channel = noticeChannel('events', schema);
    this.sessionsChannel = noticeChannel('sessions', schema);
    this.signalsChannel = noticeChannel('signals', schema);
    this.sweep = new EventSweep({
      db: handle.db,
      logger,
      users: () => this.localUsers(),
      wake: (userId, ids) => this.emitter.emit(String(userId), ids),
    });
    this.doorbell = new TickBatch((users) => this.ring(users), logger, 'a doorbell', doorbellTick);
    this.signalBatch = new TickBatch((notices) => this.sendSignals(notices), logger, 'typing signals');
  }

  static async start(url: string, schema: string, logger: Logger): Promise<PostgresEventBus> {
    const bus = new PostgresEventBus(busDatabase(url, schema), url, schema, logger, true);
    await bus.begin();
    return bus;
  }

  protected async begin(): Promise<void> {
    try {
      await this.sweep.start();
      await this.listen(this.url);
    } catch (error) {
      await this.sweep.stop();
      await this.handle.db.destroy();
      throw error;
    }
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

  override fanout(): FanoutStatus {
    return this.listener ? 'postgres' : 'polling';
  }

  private tellSessions(users: readonly UserId[] | 'all'): void {
    for (const listener of this.sessionListeners) listener(users);
    // The open streams too: a session ended through another process closes its streams here.
    this.tellWatchers(users);
  }

  private setListener(client: pg.Client | undefined): void {
    this.listener = client;
    (this.sessionChanges as { listening: boolean }).listening = client !== undefined;
    this.tellSessions('all');
    // Doorbells rung while nobody listened are lost: the rows are read by cursor until listening again, and
    // once more right then.
    if (this.notices) this.sweep.setPolling(client === undefined);
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
      if (message.channel === this.signalsChannel) this.hearSignals(payload);
      else if (message.channel === this.channel) this.hearDoorbell(payload);
      else if (payload.startsWith('sync:')) this.settling.get(payload)?.();
      else this.tellSessions(payload.split(',').flatMap((id) => (id ? [Number(id) as UserId] : [])));
    });
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      const channels = this.notices
        ? [this.channel, this.sessionsChannel, this.signalsChannel]
        : [this.sessionsChannel];
      for (const channel of channels) await client.query(`LISTEN ${quotedChannel(channel)}`);
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
   * `ids,…,~origin.cursor`, or `*,~origin.cursor` for "everyone: read by cursor" when the ids would not fit
   * one NOTIFY. Our own were delivered when published. A list without the tag is a process of an earlier
   * version's (one NOTIFY per publish), during a rolling deploy; that version reads ours as ids and skips the
   * tag (it wakes a listener for `~…` and `*` that nobody is: it misses only the rare "everyone" doorbell).
   */
  private hearDoorbell(payload: string): void {
    const ids = payload.split(',');
    const tag = ids.at(-1);
    if (tag?.startsWith('~')) {
      ids.pop();
      const [origin, cursor] = tag.slice(1).split('.');
      const top = Number(cursor);
      if (Number.isSafeInteger(top)) this.sweep.heard(top);
      if (origin === this.origin) return;
    }
    if (ids.includes('*')) {
      this.sweep.now();
      return;
    }
    for (const id of ids) if (id) this.emitter.emit(id);
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
    const send = notify(this.handle.db, this.sessionsChannel, token).then(() => 'sent' as const);
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
   * This process's own streams are woken at once, the others' by the next doorbell, which the caller does
   * not wait for: the like and the message answer without a NOTIFY round trip (their rows are committed; the
   * doorbell follows within a tick, and a lost one is made good by the sweep).
   */
  override publish(userIds: readonly UserId[]): Promise<void> {
    const ids = [...new Set(userIds)];
    void super.publish(ids);
    this.doorbell.add(ids);
    return Promise.resolve();
  }

  /** One NOTIFY for a tick's publishes: the users, or "everyone" when they do not fit (a ban, a busy tick). */
  protected async ring(users: UserId[]): Promise<void> {
    const list = [...new Set(users)].join(',');
    const ids = list.length > maxNotifyIds ? '*' : list;
    await notifyWithCursor(this.handle.db, this.channel, `${ids},~${this.origin}.`);
  }

  /**
   * As publish: this process's streams at once, the others' through a NOTIFY on a channel of its own, whose
   * payload is the events themselves (`[{origin, to, event}, …]` as JSON: a tick's signals together), since
   * there is no row to read. A signal goes to a pair's other side, so many fit in one notice.
   */
  override signal(userIds: readonly UserId[], event: EphemeralEvent): Promise<void> {
    const to = [...new Set(userIds)];
    this.emitSignal(to, event);
    if (this.notices) this.signalBatch.add([{ origin: this.origin, to, event }]);
    return Promise.resolve();
  }

  private async sendSignals(notices: SignalNotice[]): Promise<void> {
    let batch: string[] = [];
    let size = 2;
    const send = async () => {
      if (batch.length > 0) await notify(this.handle.db, this.signalsChannel, `[${batch.join(',')}]`);
      batch = [];
      size = 2;
    };
    for (const notice of notices) {
      const text = JSON.stringify(notice);
      if (size + text.length + 1 > maxNotifyPayload) await send();
      batch.push(text);
      size += text.length + 1;
    }
    await send();
  }

  /** A signal notice (one, or a tick's list): our own were delivered when sent; what does not parse is dropped. */
  private hearSignals(payload: string): void {
    for (const notice of parseSignalNotices(payload))
      if (notice.origin !== this.origin) this.emitSignal(notice.to, notice.event);
  }

  /** A method, not the field: close() may run while listen() awaits, which TypeScript's narrowing does not see. */
  protected isClosed(): boolean {
    return this.closed;
  }

  override async close(): Promise<void> {
    // The last doorbells first: a stopping process's publishes still reach the others' streams at once.
    await Promise.all([this.doorbell.close(), this.signalBatch.close()]);
    this.closed = true;
    await this.sweep.stop();
    await super.close();
    await this.listener?.end().catch(() => undefined);
    await this.handle.db.destroy();
  }
}

/** The bus's own Kysely on the deployment's schema: two connections (a doorbell, a sweep or a settle at once). */
export function busDatabase(url: string, schema: string): DatabaseHandle {
  return openDatabase({ url, dataDir: tmpdir(), searchPath: schema, poolSize: 2 });
}

/** How long a settle waits for its own notice: far above a healthy round trip, short enough to answer the request. */
const settleTimeoutMs = 2000;

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const maxNotifyPayload = 7900;
/** The ids of one doorbell: room left for the origin tag and the cursor (about 30 characters). */
const maxNotifyIds = 7800;

export interface SignalNotice {
  origin: string;
  to: UserId[];
  event: EphemeralEvent;
}

/** A list of notices, or one (as a process of the earlier version sends it during a rolling deploy). */
export function parseSignalNotices(payload: string): SignalNotice[] {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return [];
  }
  return (Array.isArray(value) ? value : [value]).flatMap((item) => {
    const notice = parseSignalNotice(item);
    return notice ? [notice] : [];
  });
}

function parseSignalNotice(value: unknown): SignalNotice | null {
  if (typeof value !== 'object' || value === null) return null;
  const { origin, to, event } = value as Record<string, unknown>;
  if (typeof origin !== 'string' || !Array.isArray(to) || !to.every((id) => Number.isInteger(id))) return null;
  const typing = parseTyping(event);
  return typing ? { origin, to: to as UserId[], event: typing } : null;
}

/** A typing event as the bus carries it, or null when it is not one. */
export function parseTyping(event: unknown): EphemeralEvent | null {
  if (typeof event !== 'object' || event === null || (event as { type?: unknown }).type !== 'typing') return null;
  const parsed = liveEventPayloads.typing.safeParse((event as { payload?: unknown }).payload);
  return parsed.success ? { type: 'typing', payload: parsed.data } : null;
}
