import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Logger } from '../../logger.ts';
import type { UserId } from '../../../db/schema.ts';

/**
 * Tells open event streams that a user has new events (the events themselves are rows, read by the
 * stream). In-process for SQLite; through PostgreSQL LISTEN/NOTIFY when several server processes share
 * one database, so a message sent through one process reaches a tab connected to another.
 */
export interface EventBus {
  publish(userIds: readonly UserId[]): Promise<void>;
  subscribe(userId: UserId, listener: () => void): () => void;
  close(): Promise<void>;
}

export class InProcessEventBus implements EventBus {
  protected readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open tab: thousands are normal, not a leak.
    this.emitter.setMaxListeners(0);
  }

  publish(userIds: readonly UserId[]): Promise<void> {
    for (const id of new Set(userIds)) this.emitter.emit(String(id));
    return Promise.resolve();
  }

  subscribe(userId: UserId, listener: () => void): () => void {
    this.emitter.on(String(userId), listener);
    return () => this.emitter.off(String(userId), listener);
  }

  close(): Promise<void> {
    this.emitter.removeAllListeners();
    return Promise.resolve();
  }
}

export class PostgresEventBus extends InProcessEventBus {
  private listener: pg.Client | undefined;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {
    super();
  }

  /** `channel` is per schema, so databases shared by several deployments (or test runs) stay apart. */
  static async start(url: string, schema: string, logger: Logger): Promise<PostgresEventBus> {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const bus = new PostgresEventBus(pool, `iskra_events_${schema.replace(/\W/g, '_')}`, logger);
    await bus.listen(url);
    return bus;
  }

  private async listen(url: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      for (const id of (message.payload ?? '').split(',')) if (id) this.emitter.emit(id);
    });
    client.on('error', (error) => {
      this.logger.error({ err: error }, 'event bus: LISTEN connection failed, reconnecting');
      this.listener = undefined;
      setTimeout(() => void this.listen(url).catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${this.channel}`);
    this.listener = client;
  }

  override async publish(userIds: readonly UserId[]): Promise<void> {
    for (const payload of notifyPayloads([...new Set(userIds)])) await this.pool.query('select pg_notify($1, $2)', [this.channel, payload]);
  }

  override async close(): Promise<void> {
    await super.close();
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: a long list of ids (a ban, a deletion) goes in several. */
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
