import { deleteAccountBody } from '../../contract/dataRights.ts';
import { requireUser } from '../../http/auth.ts';
import { clearCookie, cookieNames } from '../../http/sessionCookie.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

export function dataRightsRoutes(router: AppRouter, { dataRights, cookies, sessions }: Services): void {
  router.get('/export', async (ctx) => {
    const auth = requireUser(ctx);
    ctx.set('Content-Disposition', 'attachment; filename="iskra-my-data.json"');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await dataRights.export(auth.userId);
  });

  router.post('/delete_account', async (ctx) => {
    const auth = requireUser(ctx);
    const { password } = parse(deleteAccountBody, ctx.request.body);
    await dataRights.deleteAccount(auth.userId, auth.sessionHash, password);
    // Its sessions went with it: refused by every write at once and by this process's reads before this
    // answer is out; the other processes' reads follow when their listeners hear it (sessions/service.ts).
    await sessions.ended([auth.userId]);
    const names = cookieNames(cookies);
    clearCookie(ctx, cookies, names.session);
    // The browser's mark of having signed in to the deleted address goes with it.
    clearCookie(ctx, cookies, names.device);
    ctx.body = { message: 'Account deleted' };
  });
}
