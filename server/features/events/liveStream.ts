import { PassThrough } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, ProfileId, UserId } from '../../../db/schema.ts';
import { matchEvent, type EphemeralEvent } from '../../contract/events.ts';
import type { Logger } from '../../logger.ts';
import { badgeCountsFor, matchesStillToAnnounce, noBadges } from '../badges/index.ts';
import { findMyProfile } from '../relationships/index.ts';
import type { EventBus } from './eventBus.ts';
import { eventsAfter } from './repository.ts';

/** How often an open stream writes a comment line, so proxies keep it open (the bench spans one period). */
export const heartbeatMs = 25_000;
const backlogLimit = 500;
/**
 * How long an event may still appear below ids already read. PostgreSQL numbers a row when it is inserted
 * but shows it when its transaction commits, so two transactions writing to one user (two people messaging
 * them, a message and their own read) can commit out of id order: a cursor at the highest id sent would skip
 * the late one for good. So each read looks back over the ids of this last while and sends what it has not.
 * A late one goes out after higher ids, so a reconnect right after it replays those again: repeated, never lost.
 */
const lateCommitMs = 30_000;

export interface LiveStreamOptions {
  db: Kysely<Database>;
  bus: EventBus;
  logger: Logger;
  userId: UserId;
  /** The session the stream was opened with: it reads no events once that session has ended. */
  sessionHash: string;
  /** The last event the client has: everything after it is sent first. */
  cursor: number;
  /** The current time (the app's clock), against which the session's expiry is read. */
  now: () => string;
  /** How often the stream writes a comment line; `heartbeatMs` unless a test wants it sooner. */
  heartbeatMs?: number;
}

type EventRow = Awaited<ReturnType<typeof eventsAfter>>[number];

/** The other person of a `match` row; null when the row cannot be read as one (then it is not sent). */
function matchPartner(row: EventRow): ProfileId | null {
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
async function render(db: Kysely<Database>, userId: UserId, rows: readonly EventRow[]): Promise<string> {
  const lastBadges = rows.findLast((r) => r.type === 'badges')?.id;
  const partners = rows.filter((r) => r.type === 'match').map(matchPartner);
  // Read afresh on every batch, never kept by the stream: a user may delete their profile and make another.
  const me = lastBadges === undefined && partners.length === 0 ? undefined : (await findMyProfile(db, userId))?.id;
  const [counts, announce] = await Promise.all([
    lastBadges === undefined ? undefined : me === undefined ? noBadges : badgeCountsFor(db, me),
    partners.length === 0 || me === undefined
      ? new Set<ProfileId>()
      : matchesStillToAnnounce(
          db,
          me,
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
 * The last words of a stream whose process is stopping: a short reconnection time, then the end. The browser's
 * EventSource reconnects by itself after `retry` ms with `Last-Event-ID` (a clean end is not an error it gives up
 * on), and the balancer sends it to another process, which resumes after that id. The time is spread over a
 * couple of seconds so the streams of a whole process do not all land on the others in one instant. The
 * `reconnect` event carries no id (the last id the client holds stays) and the app listens for no such type.
 */
export function reconnectNotice(random: () => number = Math.random): string {
  const retryMs = 500 + Math.floor(random() * 2000);
  return `retry: ${retryMs}\nevent: reconnect\ndata: {"reason":"shutdown"}\n\n`;
}

/**
 * The first words of every stream: the reconnection time, and the cursor as the stream's last event id. A
 * block with an `id:` and no `data:` dispatches no event (the HTML spec's "dispatch the event" returns on an
 * empty data buffer) but does set the EventSource's last event id, so a browser that drops the connection
 * before its first event reconnects with `Last-Event-ID` and is sent what happened meanwhile, not only what
 * follows its return. The app sees no event it could misread: no message, no type, no id to acknowledge.
 */
export function openingFrame(cursor: number): string {
  return `retry: 3000\nid: ${cursor}\n: connected\n\n`;
}

/**
 * An event that is not a row (someone typing, EventBus.signal), as SSE text: no `id:` line, so the browser's
 * last event id stays that of the last stored event (a block without one leaves it as it was), and a
 * reconnection neither skips a stored event nor asks for this one again.
 */
export function ephemeralFrame(event: EphemeralEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event.payload)}\n\n`;
}

/**
 * One Server-Sent Events stream of a user's events: what came after the cursor first (a reconnecting tab
 * misses nothing), then whatever the bus announces, with a comment line as heartbeat so proxies keep the
 * connection open. `close` is idempotent; `close('shutdown')` first tells the client to reconnect soon.
 */
export function openLiveStream(options: LiveStreamOptions): {
  stream: PassThrough;
  close: (reason?: 'shutdown') => void;
} {
  const { db, logger, userId, sessionHash } = options;
  const stream = new PassThrough();
  // Every id up to `floor` was sent or will never come; above it, `sent` holds what went out, and `reads`
  // the highest id read at each time, which becomes the floor once `lateCommitMs` have passed.
  let floor = options.cursor;
  let top = options.cursor;
  const sent = new Set<number>();
  const reads: { at: number; top: number }[] = [];
  let draining: Promise<void> = Promise.resolve();
  let closed = false;
  // Serialised: two announcements close together must not send the same rows twice.
  const drain = () => {
    draining = draining
      .then(async () => {
        const now = Date.now();
        while (reads[0] !== undefined && reads[0].at <= now - lateCommitMs)
          floor = Math.max(floor, reads.shift()?.top ?? floor);
        for (const id of sent) if (id <= floor) sent.delete(id);
        let from = floor;
        while (!closed) {
          const rows = await eventsAfter(db, userId, sessionHash, from, backlogLimit, options.now());
          const fresh = rows.filter((r) => !sent.has(r.id));
          const text = fresh.length === 0 ? '' : await render(db, userId, fresh);
          // Closed while the counts were read: nothing more is written.
          if (stream.writableEnded) return;
          if (text) stream.write(text);
          for (const row of fresh) sent.add(row.id);
          from = rows.at(-1)?.id ?? from;
          top = Math.max(top, from);
          if (rows.length < backlogLimit) break;
        }
        reads.push({ at: now, top });
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'event stream: read failed'));
  };
  stream.write(openingFrame(options.cursor));
  // A wake naming its rows (the sweep's, eventSweep.ts) reads nothing when every one was sent or lies below
  // the floor; any other wake reads.
  const unsubscribe = options.bus.subscribe(userId, (ids) => {
    if (ids && ids.every((id) => id <= floor || sent.has(id))) return;
    drain();
  });
  // Written as it comes, between whole frames of the drain (each write is one frame). The session is not read
  // for it: its end closes this stream (streamSessions.ts), and what could slip out meanwhile is that the
  // other person was typing.
  const unsignal = options.bus.onSignal(userId, (event) => {
    if (!closed && !stream.writableEnded) stream.write(ephemeralFrame(event));
  });
  const heartbeat = setInterval(() => stream.write(': ping\n\n'), options.heartbeatMs ?? heartbeatMs);
  drain();
  const close = (reason?: 'shutdown') => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    unsignal();
    if (reason === 'shutdown' && !stream.writableEnded) stream.write(reconnectNotice());
    stream.end();
  };
  stream.on('error', () => close());
  return { stream, close };
}
