import { PassThrough } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, UserId } from '../../../db/schema.ts';
import type { Logger } from '../../logger.ts';
import type { EventBus } from './eventBus.ts';
import { eventsAfter } from './repository.ts';

export const heartbeatMs = 25_000;
const backlogLimit = 500;

export interface LiveStreamOptions {
  db: Kysely<Database>;
  bus: EventBus;
  logger: Logger;
  userId: UserId;
  /** The last event the client has: everything after it is sent first. */
  cursor: number;
  /** Called on every heartbeat (presence). */
  onBeat: () => void;
}

/**
 * One Server-Sent Events stream of a user's events: what came after the cursor first (a reconnecting tab
 * misses nothing), then whatever the bus announces, with a comment line as heartbeat so proxies keep the
 * connection open. `close` is idempotent.
 */
export function openLiveStream(options: LiveStreamOptions): { stream: PassThrough; close: () => void } {
  const { db, logger, userId } = options;
  const stream = new PassThrough();
  let cursor = options.cursor;
  let draining: Promise<void> = Promise.resolve();
  let closed = false;
  // Serialised: two announcements close together must not send the same rows twice.
  const drain = () => {
    draining = draining
      .then(async () => {
        while (!closed) {
          const rows = await eventsAfter(db, userId, cursor, backlogLimit);
          for (const row of rows) {
            stream.write(`id: ${row.id}\nevent: ${row.type}\ndata: ${row.payload}\n\n`);
            cursor = row.id;
          }
          if (rows.length < backlogLimit) return;
        }
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'event stream: read failed'));
  };
  stream.write(`retry: 3000\n: connected\n\n`);
  const unsubscribe = options.bus.subscribe(userId, drain);
  const heartbeat = setInterval(() => {
    stream.write(': ping\n\n');
    options.onBeat();
  }, heartbeatMs);
  drain();
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    stream.end();
  };
  stream.on('error', close);
  return { stream, close };
}
