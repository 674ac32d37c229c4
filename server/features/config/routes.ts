import { publicConfigResponse, type PublicConfig } from '../../contract/config.ts';
import type { AppRouter } from '../../http/context.ts';

/** `GET /api/config`: public settings only (see the contract); cached briefly since they change on deploy. */
export function configRoutes(router: AppRouter, config: PublicConfig): void {
  const body = publicConfigResponse.parse(config);
  router.get('/config', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = body;
  });
}
