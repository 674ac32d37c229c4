import { setMaxListeners } from 'node:events';
import { z } from 'zod';
import { eventAckBody } from '../../contract/events.ts';
import { maxRowId } from '../../contract/ids.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { settleAcknowledged } from '../notifications/index.ts';
import { openLiveStream } from './liveStream.ts';
import { lastEventId } from './repository.ts';

const eventsQuery = z.object({
  token: z.string().max(2000).optional(),
  lastEventId: z.coerce.number().int().min(0).max(maxRowId).optional(),
});

/**
 * `GET /api/events`: the signed-in user's live events as Server-Sent Events (liveStream.ts); `POST
 * /api/events/ack`: the app displayed some of them.
 */
export function eventRoutes(
  router: AppRouter,
  { db, eventBus, logger, clock, shutdownSignal, streamSessions }: Services,
): void {
  // Every open stream listens for the shutdown: thousands of listeners on one signal are expected here.
  setMaxListeners(0, shutdownSignal);

  router.get('/events', async (ctx) => {
    const auth = requireUser(ctx);
    const query = parse(eventsQuery, ctx.query);
    const sent = ctx.get('Last-Event-ID');
    // Beyond the 32-bit ids no event can follow (and PostgreSQL would refuse the comparison): ignored. 0 is
    // an id like another: the opening id of a user who had no event yet (openingFrame).
    const header = /^\d{1,10}$/.test(sent) ? Number(sent) : Number.NaN;
    const cursor = header <= maxRowId ? header : (query.lastEventId ?? (await lastEventId(db, auth.userId)));

    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    const live = openLiveStream({
      db,
      bus: eventBus,
      logger,
      userId: auth.userId,
      sessionHash: auth.sessionHash,
      cursor,
      now: () => clock.now().toISOString(),
      heartbeatMs: streamSessions.heartbeatMs,
    });
    ctx.status = 200;
    ctx.body = live.stream;
    // Every way the stream can end is watched, so its heartbeat and subscription never stay behind. The
    // session's end is one of them: the stream closes on every process (streamSessions.ts).
    const end = () => {
      live.close();
      unwatch();
      shutdownSignal.removeEventListener('abort', endForShutdown);
    };
    const unwatch = streamSessions.watch(auth.userId, auth.sessionHash, end);
    // On shutdown the stream says "reconnect soon" and ends, so the server can close; the browser comes back
    // (through the balancer, to another process) with Last-Event-ID and misses nothing.
    const endForShutdown = () => {
      live.close('shutdown');
      end();
    };
    ctx.req.on('close', end);
    live.stream.on('close', end);
    shutdownSignal.addEventListener('abort', endForShutdown);
    // A request on a kept-alive connection after the shutdown began: told to go elsewhere at once.
    if (shutdownSignal.aborted) endForShutdown();
  });

  // Only the caller's own notifications are settled: another user's ids change nothing and say nothing.
  router.post('/events/ack', async (ctx) => {
    const auth = requireUser(ctx);
    const { ids } = parse(eventAckBody, ctx.request.body);
    await settleAcknowledged(db, auth.userId, ids, clock.now().toISOString());
    ctx.body = { ok: true };
  });
}
