import { sql } from 'kysely';
import type { AppRouter } from '../../http/context.ts';
import type { Services } from '../../services.ts';

export function healthRoutes(router: AppRouter, { db, logger }: Services): void {
  router.get('/health', async (ctx) => {
    try {
      await sql`select 1`.execute(db);
      ctx.body = { status: 'ok', database: 'ok' };
    } catch (error) {
      logger.error({ err: error }, 'health check: database unreachable');
      ctx.status = 503;
      ctx.body = { status: 'error', database: 'unreachable' };
    }
  });
}
