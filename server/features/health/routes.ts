import type { AppRouter } from '../../http/context.ts';
import type { Services } from '../../services.ts';

/**
 * For the load balancer and the admins: 503 when the database does not answer, and 503 with `busy` when
 * another process holds SQLite's write lock (reads still work, but every write would be refused with
 * `database_busy`); the bot being unreachable, or live events only read by cursor (`live_events: polling`,
 * the LISTEN connection or Redis lost), is reported but the site still serves, so the status is only
 * "degraded".
 */
export function healthRoutes(router: AppRouter, { databaseProbe, logger, botStatus, eventBus }: Services): void {
  router.get('/health', async (ctx) => {
    const [database, bot] = await Promise.all([
      databaseProbe().catch((error: unknown) => {
        logger.error({ err: error }, 'health check: database unreachable');
        return 'unreachable' as const;
      }),
      botStatus(),
    ]);
    ctx.status = database === 'ok' ? 200 : 503;
    // Such a lock lasts moments: the balancer may look again soon.
    if (database === 'busy') ctx.set('Retry-After', '2');
    // How this process hears the others' live events: 'polling' while neither LISTEN nor Redis answers (the
    // streams still get every event, read by cursor every second, so the site serves: degraded).
    const liveEvents = eventBus.fanout();
    const degraded = bot === 'unreachable' || liveEvents === 'polling';
    ctx.body = {
      status: database !== 'ok' ? 'error' : degraded ? 'degraded' : 'ok',
      database,
      bot,
      live_events: liveEvents,
    };
  });
}
