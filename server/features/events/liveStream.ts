import { PassThrough } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { matchEvent } from '../../contract/events.ts';
import type { Logger } from '../../logger.ts';
import { badgeCountsOf, matchesStillToAnnounce } from '../badges/repository.ts';
import type { EventBus } from './eventBus.ts';
import { eventsAfter } from './repository.ts';

const heartbeatMs = 25_000;
const backlogLimit = 500;

export interface LiveStreamOptions {
  db: Kysely<Database>;
  bus: EventBus;
  logger: Logger;
  userId: number;
  /** The last event the client has: everything after it is sent first. */
  cursor: number;
}

type EventRow = Awaited<ReturnType<typeof eventsAfter>>[number];

/** The other person of a `match` row; null when the row cannot be read as one (then it is not sent). */
function matchPartner(row: EventRow): number | null {
  try {
    const parsed = matchEvent.safeParse(JSON.parse(row.payload));
    return parsed.success ? parsed.data.profile.id : null;
  } catch {
    return null;
  }
}

/**
 * What of a batch of rows goes out, in order, as SSE text. A `badges` row carries no counts: the current ones
 * are read now, once per batch, and sent at the last such row's place (earlier ones would only be older
 * news). A `match` goes out only while its match is live and not yet marked seen by the user, so a resuming
 * tab or a second device does not show an overlay already dealt with.
 */
async function render(db: Kysely<Database>, userId: number, rows: readonly EventRow[]): Promise<string> {
  const lastBadges = rows.findLast((r) => r.type === 'badges')?.id;
  const partners = rows.filter((r) => r.type === 'match').map(matchPartner);
  const [counts, announce] = await Promise.all([
    lastBadges === undefined ? undefined : badgeCountsOf(db, userId),
    partners.length === 0
      ? new Set<number>()
      : matchesStillToAnnounce(
          db,
          userId,
          partners.filter((p) => p !== null),
        ),
  ]);
  let text = '';
  for (const row of rows) {
    let payload = row.payload;
    if (row.type === 'badges') {
      if (row.id !== lastBadges) continue;
      payload = JSON.stringify(counts);
    }
    if (row.type === 'match') {
      const partner = matchPartner(row);
      if (partner === null || !announce.has(partner)) continue;
    }
    text += `id: ${row.id}\nevent: ${row.type}\ndata: ${payload}\n\n`;
  }
  return text;
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
          if (rows.length === 0) return;
          const text = await render(db, userId, rows);
          // Closed while the counts were read: nothing more is written.
          if (stream.writableEnded) return;
          if (text) stream.write(text);
          cursor = rows.at(-1)?.id ?? cursor;
          if (rows.length < backlogLimit) return;
        }
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'event stream: read failed'));
  };
  stream.write(`retry: 3000\n: connected\n\n`);
  const unsubscribe = options.bus.subscribe(userId, drain);
  const heartbeat = setInterval(() => stream.write(': ping\n\n'), heartbeatMs);
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
