import { translatorFor, type Language } from '../../../locales/index.ts';
import {
  checkoutParams,
  checkoutQuery,
  paymentBody,
  paymentParams,
  yookassaNotification,
} from '../../contract/payments.ts';
import { AppError, notFound } from '../../errors.ts';
import { requireUser } from '../../http/auth.ts';
import type { AppRouter, SessionAuth } from '../../http/context.ts';
import { parse } from '../../http/validate.ts';
import type { Services } from '../../services.ts';
import { offeredPlans, plans } from './plans.ts';
import { renderCheckoutPage } from './checkoutPage.ts';

/** Text for an HTML page: the test checkout shows nothing user-supplied, but escaping stays the rule. */
export const yookassaNotifyPath = '/api/payments/yookassa/notify';
const testCheckoutPrefix = '/api/payments/test/checkout/';

/**
 * Requests that carry no session cookie, so no CSRF token: YooKassa's notifications (checked by address and
 * by reading the payment back), and the test checkout, which stands in for a provider's page (its link is
 * the credential).
 */
export const premiumCsrfExemptions = { paths: [yookassaNotifyPath], prefixes: [testCheckoutPrefix] };

export function premiumRoutes(router: AppRouter, { premium, yookassaRanges, logger }: Services): void {
  const languageOf = (ctx: { state: { auth: { language: Language } | null } }) => ctx.state.auth?.language ?? 'ru';

  /** The same rule as POST /payment: a Telegram account in the Mini App pays in Stars. */
  const paysInStars = async (auth: SessionAuth | null) =>
    auth !== null && auth.via === 'bearer' && (await premium.paysInStars(auth.userId));

  router.get('/plans', async (ctx) => {
    const t = translatorFor(languageOf(ctx));
    const inStars = await paysInStars(ctx.state.auth);
    ctx.body = {
      plans: offeredPlans(await premium.offersTestPlan(ctx.state.auth?.userId ?? null)).map((p) => ({
        id: p.id,
        title: t(`premium.plans.${p.id}`),
        price: p.price,
        interval: p.intervalDays,
        discount: p.discount,
        ...(inStars ? { stars: p.stars } : {}),
      })),
      // The app shows its test link to the payment outcome page only beside the built-in test checkout.
      test_provider: premium.webProvider === 'test',
    };
  });

  router.get('/subscription', async (ctx) => {
    ctx.body = await premium.subscription(requireUser(ctx).userId);
  });

  /** What became of one of the caller's payments (/confirm asks, and asks again while it is pending). */
  router.get('/payments/:id', async (ctx) => {
    const { userId } = requireUser(ctx);
    const { id } = parse(paymentParams, ctx.params);
    ctx.body = await premium.paymentStatus(userId, id);
  });

  router.post('/payment', async (ctx) => {
    const auth = requireUser(ctx);
    const { amount, interval } = parse(paymentBody, ctx.request.body);
    // Telegram allows digital goods inside a Mini App only for Stars: the Mini App (a bearer session of a
    // Telegram account) gets an invoice link, which it opens with the invoice call instead of navigating.
    if (await paysInStars(auth)) {
      const { url, id } = await premium.startStars(auth.userId, amount, interval);
      // payment_id: the app asks GET /api/payments/:id about it while the bot has not yet heard of the payment.
      ctx.body = { payment_url: url, payment_id: id };
      return;
    }
    if (premium.webProvider === 'yookassa') {
      const { url, id } = await premium.startYooKassa(auth.userId, amount, interval);
      ctx.body = { payment_url: url, payment_id: id };
      return;
    }
    // No web provider (PAYMENT_PROVIDER off, the default on an https site without one): said plainly.
    if (premium.webProvider !== 'test')
      throw new AppError(503, 'payments_unavailable', 'Payments are not available at the moment');
    const payment = await premium.createPayment(auth.userId, amount, interval);
    // Same-site and relative: the window navigates there as it would to a provider's page.
    ctx.body = {
      payment_url: `/api/payments/test/checkout/${payment.id}?key=${encodeURIComponent(premium.checkoutKey(payment.id))}`,
      payment_id: payment.id,
    };
  });

  /**
   * YooKassa's notifications are not signed: only its published addresses are listened to (the client
   * address as Koa sees it: with TRUST_PROXY only the hop our own proxy appended to X-Forwarded-For, so an
   * allowed address the sender wrote further left counts for nothing), and even then the payment
   * is read back from the API before anything is credited. A failure to read answers 500, so YooKassa retries.
   */
  router.post('/payments/yookassa/notify', async (ctx) => {
    if (premium.webProvider !== 'yookassa' || !yookassaRanges) throw notFound();
    if (!yookassaRanges.contains(ctx.ip)) {
      logger.warn({ ip: ctx.ip }, 'YooKassa notification from an address outside its ranges refused');
      throw new AppError(403, 'forbidden_address', 'Not accepted from this address');
    }
    const { object } = parse(yookassaNotification, ctx.request.body);
    const outcome = await premium.settleYooKassa(object.id);
    logger.info({ providerPaymentId: object.id, outcome }, 'YooKassa notification');
    ctx.body = { status: 'ok' };
  });

  /** The built-in test provider's checkout page (checkoutPage.ts). */
  router.get('/payments/test/checkout/:id', async (ctx) => {
    if (!premium.testProvider) throw notFound();
    const { id } = parse(checkoutParams, ctx.params);
    const { key } = parse(checkoutQuery, ctx.query);
    const payment = await premium.pendingCheckout(id, key);
    const t = translatorFor(languageOf(ctx));
    const plan = plans.find((p) => p.id === payment.plan_id);
    const action = (verb: string) => `/api/payments/test/checkout/${id}/${verb}?key=${encodeURIComponent(key)}`;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderCheckoutPage({
      language: languageOf(ctx),
      t,
      planTitle: t(`premium.plans.${plan?.id ?? 'month'}`),
      amount: payment.amount,
      pending: payment.status === 'pending',
      actions: { pay: action('pay'), cancel: action('cancel') },
    });
  });

  router.post('/payments/test/checkout/:id/:verb', async (ctx) => {
    if (!premium.testProvider) throw notFound();
    const { id } = parse(checkoutParams, ctx.params);
    const { key } = parse(checkoutQuery, ctx.query);
    await premium.pendingCheckout(id, key);
    if (ctx.params.verb === 'pay') {
      await premium.credit(id);
      // The app's page asks the server what became of this payment rather than trusting the address.
      ctx.redirect(`/confirm?payment=${id}`);
    } else if (ctx.params.verb === 'cancel') {
      await premium.cancel(id);
      ctx.redirect(`/fail?payment=${id}`);
    } else {
      throw notFound();
    }
    ctx.status = 303;
  });
}
