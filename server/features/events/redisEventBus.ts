import { createClient } from '@redis/client';
import type { UserId } from '../../../db/schema.ts';
import type { EphemeralEvent } from '../../contract/events.ts';
import type { Logger } from '../../logger.ts';
import type { FanoutStatus, WakeListener } from './eventBus.ts';
import { busDatabase, parseTyping, PostgresEventBus } from './postgresEventBus.ts';

function redisClient(url: string) {
  return createClient({
    url,
    // A command while disconnected fails at once: a doorbell is worth nothing late (the sweep reads instead).
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, maxReconnectMs) },
  });
}

type Redis = ReturnType<typeof redisClient>;

/**
 * The Redis doorbell's tick: SPUBLISH has no cluster-wide commit queue to spare (NOTIFY's reason for 25 ms),
 * so only the publishes of a few milliseconds share one write to Redis, and a cross-process wake waits for
 * next to nothing (cross-process p99 at 50 msg/s was 1.8x the same-process p99 with 25 ms, bench/fanout.ts).
 */
const redisTickMs = 3;

/** How long between reconnection attempts at most: the streams are read by cursor meanwhile. */
const maxReconnectMs = 2000;

/**
 * The event bus with Redis pub/sub as the doorbell (REDIS_URL). Events are rows, as on PostgreSQL alone; a
 * tick's publishes ring each touched user's channel once (`SPUBLISH <prefix>u:<id>`, sharded pub/sub: on a
 * cluster the channel lives on its slot's shard only), and each process subscribes (`SSUBSCRIBE`) to the
 * channels of the users whose streams it holds, so a process with no streams hears nothing of others' traffic
 * (through NOTIFY every process heard every notice). Typing signals go on the same channels with the event.
 * Session ends: the sessions table's triggers still NOTIFY every process through PostgreSQL (the session
 * cache's settle needs their commit order), and the process that ended them also tells the others' streams on
 * `<prefix>sessions`, at once. While either Redis connection is down the streams are read by cursor every
 * second (eventSweep.ts) and `/api/health` says `polling`; once back, once more at once. Channel names
 * carry the schema, so deployments (and test runs) sharing a Redis stay apart.
 */
export class RedisEventBus extends PostgresEventBus {
  private readonly prefix: string;
  private readonly brokerSessionsChannel: string;
  /** Per user: how many wake and signal listeners hold its channel here. */
  private readonly holds = new Map<UserId, number>();
  /** Users whose channel the subscriber has (or is asking for) now. */
  private readonly subscribed = new Set<UserId>();
  private readonly subscribing = new Set<UserId>();
  private readonly listeners = new Map<UserId, (message: string) => void>();
  private readonly up = { pub: false, sub: false };
  private warned = false;
  private sessionsHeld: 'no' | 'asking' | 'yes' = 'no';

  private constructor(
    url: string,
    schema: string,
    private readonly pub: Redis,
    private readonly sub: Redis,
    logger: Logger,
  ) {
    super(busDatabase(url, schema), url, schema, logger, false, redisTickMs);
    this.prefix = `iskra:${schema}:`;
    this.brokerSessionsChannel = `${this.prefix}sessions`;
    for (const [name, client] of [
      ['pub', pub],
      ['sub', sub],
    ] as const) {
      client.on('ready', () => this.connection(name, true));
      client.on('reconnecting', () => this.connection(name, false));
      client.on('end', () => this.connection(name, false));
      client.on('error', (error: unknown) => {
        this.connection(name, false);
        // Once per outage: a down Redis reports every reconnection attempt.
        if (!this.warned)
          this.logger.error({ err: error }, 'event bus: Redis connection failed; reading events by cursor');
        this.warned = true;
      });
    }
  }

  /**
   * Waits up to `startWaitMs` for Redis: a process started while Redis is down serves anyway, reading events
   * by cursor (`/api/health`: polling) while its clients keep trying, and takes doorbells once Redis answers.
   */
  static async connect(
    url: string,
    schema: string,
    redisUrl: string,
    logger: Logger,
    startWaitMs = 5000,
  ): Promise<RedisEventBus> {
    const pub = redisClient(redisUrl);
    const sub = redisClient(redisUrl);
    const bus = new RedisEventBus(url, schema, pub, sub, logger);
    const connected = Promise.all([pub.connect(), sub.connect()]).then(() => true);
    // Settled later or never (the clients retry until close): nobody else awaits it.
    connected.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), startWaitMs)));
    try {
      if (!(await Promise.race([connected, late])))
        logger.error('event bus: Redis does not answer; serving with events read by cursor until it does');
      await bus.begin();
    } catch (error) {
      await Promise.all([pub.destroy(), sub.destroy()].map((p) => Promise.resolve(p).catch(() => undefined)));
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return bus;
  }

  /** The session-end channel, asked for each time the subscriber is ready until it has it. */
  private subscribeSessions(): void {
    if (this.sessionsHeld !== 'no') return;
    this.sessionsHeld = 'asking';
    this.sub
      .sSubscribe(this.brokerSessionsChannel, (message) => this.hearSessions(message))
      .then(() => (this.sessionsHeld = 'yes'))
      .catch(() => (this.sessionsHeld = 'no'));
  }

  private connection(name: 'pub' | 'sub', up: boolean): void {
    this.up[name] = up;
    const healthy = this.up.pub && this.up.sub;
    if (healthy && this.warned) {
      this.logger.info('event bus: Redis is back');
      this.warned = false;
    }
    // The subscriber's channels are subscribed again by the client before it is ready; what was rung
    // meanwhile is read by cursor, often while down, and once more on the way back up.
    this.sweep.setPolling(!healthy);
    if (name === 'sub' && up) {
      this.subscribeSessions();
      for (const userId of this.holds.keys()) this.subscribeTo(userId);
    }
  }

  override fanout(): FanoutStatus {
    return this.sweep.isPolling || !(this.up.pub && this.up.sub) ? 'polling' : 'redis';
  }

  private userChannel(userId: UserId): string {
    return `${this.prefix}u:${userId}`;
  }

  override subscribe(userId: UserId, listener: WakeListener): () => void {
    const off = super.subscribe(userId, listener);
    this.hold(userId);
    return () => {
      off();
      this.release(userId);
    };
  }

  override onSignal(userId: UserId, listener: (event: EphemeralEvent) => void): () => void {
    const off = super.onSignal(userId, listener);
    this.hold(userId);
    return () => {
      off();
      this.release(userId);
    };
  }

  /**
   * The first stream of a user here subscribes to their channel. A doorbell rung before the subscription took
   * effect is not heard, so once it has, the user's streams read once more (a stream reads its backlog on
   * opening, but a row committed between that read and the subscription would otherwise wait for the sweep).
   */
  private hold(userId: UserId): void {
    const count = this.holds.get(userId) ?? 0;
    this.holds.set(userId, count + 1);
    if (count === 0) this.subscribeTo(userId);
  }

  /**
   * A subscription refused while Redis was down is not kept by the client (it re-subscribes only what had
   * succeeded), so those are asked again when the connection is back (connection()).
   */
  private subscribeTo(userId: UserId): void {
    if (this.subscribed.has(userId) || this.subscribing.has(userId)) return;
    this.subscribing.add(userId);
    this.sub
      .sSubscribe(this.userChannel(userId), this.listenerOf(userId))
      .then(() => {
        this.subscribing.delete(userId);
        this.subscribed.add(userId);
        // Released meanwhile: nobody here needs it any more.
        if (!this.holds.has(userId)) this.unsubscribeFrom(userId);
        else this.emitter.emit(String(userId));
      })
      .catch((error: unknown) => {
        this.subscribing.delete(userId);
        this.logger.debug({ err: error, userId }, 'event bus: Redis subscription failed; retried once Redis is back');
      });
  }

  /** One listener per user, the same function every time: the client keeps a set of them per channel. */
  private listenerOf(userId: UserId): (message: string) => void {
    let listener = this.listeners.get(userId);
    if (!listener) {
      listener = (message: string) => this.hear(userId, message);
      this.listeners.set(userId, listener);
    }
    return listener;
  }

  private release(userId: UserId): void {
    const count = (this.holds.get(userId) ?? 0) - 1;
    if (count > 0) {
      this.holds.set(userId, count);
      return;
    }
    this.holds.delete(userId);
    if (this.subscribed.has(userId)) this.unsubscribeFrom(userId);
  }

  private unsubscribeFrom(userId: UserId): void {
    this.subscribed.delete(userId);
    this.listeners.delete(userId);
    // Subscribed again by a later hold if one comes; the client keeps the order of the two commands.
    this.sub.sUnsubscribe(this.userChannel(userId)).catch(() => undefined);
  }

  /** `w|origin`: a doorbell; `s|origin|event`: a typing signal. Our own were delivered when sent. */
  private hear(userId: UserId, message: string): void {
    const [kind, origin] = message.split('|', 2);
    if (origin === this.origin) return;
    if (kind === 'w') {
      this.emitter.emit(String(userId));
    } else if (kind === 's') {
      let event: unknown;
      try {
        event = JSON.parse(message.slice(`s|${origin}|`.length));
      } catch {
        return;
      }
      const typing = parseTyping(event);
      if (typing) this.emitSignal([userId], typing);
    }
  }

  /**
   * Each touched user's channel once per tick; the client sends the tick's commands in one write. Nothing
   * while the publisher is down: the send would fail at once (no offline queue), and log, every tick of an
   * outage; the rows reach the others' streams by their reads by cursor, as a lost doorbell's do.
   */
  protected override async ring(users: UserId[]): Promise<void> {
    if (!this.up.pub) return;
    const message = `w|${this.origin}`;
    await Promise.all([...new Set(users)].map((id) => this.pub.sPublish(this.userChannel(id), message)));
  }

  override async signal(userIds: readonly UserId[], event: EphemeralEvent): Promise<void> {
    const to = [...new Set(userIds)];
    this.emitSignal(to, event);
    if (!this.up.pub) return;
    const message = `s|${this.origin}|${JSON.stringify(event)}`;
    // A signal that cannot be sent is lost, as it would be to a stream not open: nothing replays typing.
    await Promise.all(to.map((id) => this.pub.sPublish(this.userChannel(id), message))).catch(() => undefined);
  }

  override sessionsChanged(userIds: readonly UserId[]): void {
    super.sessionsChanged(userIds);
    if (userIds.length === 0 || !this.up.pub) return;
    this.pub
      .sPublish(this.brokerSessionsChannel, `${this.origin}|${[...new Set(userIds)].join(',')}`)
      .catch(() => undefined);
  }

  /** Another process ended these users' sessions: their streams here re-read their sessions now. */
  private hearSessions(message: string): void {
    const [origin, list] = message.split('|', 2);
    if (origin === this.origin || !list) return;
    this.tellWatchers(list.split(',').flatMap((id) => (/^\d+$/.test(id) ? [Number(id) as UserId] : [])));
  }

  override async close(): Promise<void> {
    await super.close();
    // close() lets what was sent finish; on a client still retrying (Redis down) it fails, and destroy()
    // stops the retries, which would otherwise keep a stopping process alive.
    await Promise.all(
      [this.pub, this.sub].map((client) =>
        client.close().catch(() => {
          try {
            client.destroy();
          } catch {
            // Already closed.
          }
        }),
      ),
    );
  }
}
