import { sql } from 'kysely';
import type { AppRouter } from '../../http/context.ts';
import type { Services } from '../../services.ts';

/**
 * For the load balancer and the admins: 503 when the database does not answer (nothing works then); the
 * bot being unreachable is reported but the site still serves, so the status is only "degraded".
 */
export function healthRoutes(router: AppRouter, { db, logger, botStatus }: Services): void {
  router.get('/health', async (ctx) => {
    const [database, bot] = await Promise.all([
      sql`select 1`.execute(db).then(
        () => 'ok' as const,
        (error: unknown) => {
          logger.error({ err: error }, 'health check: database unreachable');
          return 'unreachable' as const;
        },
      ),
      botStatus(),
    ]);
    ctx.status = database === 'ok' ? 200 : 503;
    ctx.body = { status: database !== 'ok' ? 'error' : bot === 'unreachable' ? 'degraded' : 'ok', database, bot };
  });
}
