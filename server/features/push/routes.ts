import { pushSubscriptionRequest, pushUnsubscribeRequest, type PushKeyResponse } from '../../contract/push.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';

/** Web Push subscriptions (PushService). */
export function pushRoutes(router: AppRouter, { push }: Services): void {
  // Public: PushManager.subscribe needs it before anything is stored, and it is the same for everyone.
  router.get('/push/key', async (ctx) => {
    ctx.body = { public_key: await push.publicKey() } satisfies PushKeyResponse;
  });

  router.post('/push/subscriptions', async (ctx) => {
    const auth = requireUser(ctx);
    await push.subscribe(auth.userId, auth.sessionHash, parse(pushSubscriptionRequest, ctx.request.body));
    ctx.body = { message: 'Subscribed' };
  });

  router.post('/push/subscriptions/delete', async (ctx) => {
    const auth = requireUser(ctx);
    const { endpoint } = parse(pushUnsubscribeRequest, ctx.request.body);
    await push.unsubscribe(auth.userId, endpoint);
    ctx.body = { message: 'Unsubscribed' };
  });
}
