import { setMaxListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { maxRowId } from '../../contract/ids.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { eventsAfter, lastEventId } from './repository.ts';

export const heartbeatMs = 25_000;
const backlogLimit = 500;

const eventsQuery = z.object({
  token: z.string().max(2000).optional(),
  lastEventId: z.coerce.number().int().min(0).max(maxRowId).optional(),
});

/**
 * `GET /api/events`: Server-Sent Events for the signed-in user's tabs. On connect it replays what came
 * after `Last-Event-ID` (a reconnecting tab misses nothing), then pushes new events as the bus announces
 * them, with a comment line as heartbeat so proxies keep the connection open.
 */
/** Long enough to outlast two missed heartbeats. */
const onlineForMs = heartbeatMs * 2 + 10_000;

export function eventRoutes(router: AppRouter, { db, eventBus, logger, clock, shutdownSignal }: Services): void {
  // Every open stream listens for the shutdown: thousands of listeners on one signal are expected here.
  setMaxListeners(0, shutdownSignal);
  // Open streams per user in this process: "offline" is written only when the last one closes.
  const openStreams = new Map<number, number>();
  const markOnline = (userId: number, online: boolean) =>
    db
      .updateTable('users')
      .set({ online_until: new Date(clock.now().getTime() + (online ? onlineForMs : 0)).toISOString() })
      .where('id', '=', userId)
      .execute()
      .catch((error: unknown) => logger.warn({ err: error }, 'event stream: presence not written'));

  router.get('/events', async (ctx) => {
    const auth = requireUser(ctx);
    const query = parse(eventsQuery, ctx.query);
    const header = Number(ctx.get('Last-Event-ID'));
    // Beyond the 32-bit ids no event can follow (and PostgreSQL would refuse the comparison): ignored.
    let cursor = Number.isInteger(header) && header > 0 && header <= maxRowId ? header : (query.lastEventId ?? (await lastEventId(db, auth.userId)));

    const stream = new PassThrough();
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    ctx.status = 200;
    ctx.body = stream;

    let draining: Promise<void> = Promise.resolve();
    let closed = false;
    // Serialised: two announcements close together must not send the same rows twice.
    const drain = () => {
      draining = draining.then(async () => {
        while (!closed) {
          const rows = await eventsAfter(db, auth.userId, cursor, backlogLimit);
          for (const row of rows) {
            stream.write(`id: ${row.id}\nevent: ${row.type}\ndata: ${row.payload}\n\n`);
            cursor = row.id;
          }
          if (rows.length < backlogLimit) return;
        }
      }).catch((error: unknown) => logger.warn({ err: error }, 'event stream: read failed'));
    };
    stream.write(`retry: 3000\n: connected\n\n`);
    const unsubscribe = eventBus.subscribe(auth.userId, drain);
    openStreams.set(auth.userId, (openStreams.get(auth.userId) ?? 0) + 1);
    await markOnline(auth.userId, true);
    const heartbeat = setInterval(() => {
      stream.write(': ping\n\n');
      void markOnline(auth.userId, true);
    }, heartbeatMs);
    drain();
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      shutdownSignal.removeEventListener('abort', close);
      stream.end();
      const left = (openStreams.get(auth.userId) ?? 1) - 1;
      if (left > 0) openStreams.set(auth.userId, left);
      else {
        openStreams.delete(auth.userId);
        void markOnline(auth.userId, false);
      }
    };
    ctx.req.on('close', close);
    stream.on('error', close);
    // On shutdown the stream ends, so the server can close; the browser reconnects (to another process).
    shutdownSignal.addEventListener('abort', close);
  });
}
