import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { accountRoutes } from './features/accounts/routes.ts';
import { badgeRoutes } from './features/badges/routes.ts';
import { chatRoutes } from './features/chat/routes.ts';
import { dataRightsRoutes } from './features/dataRights/routes.ts';
import { premiumCsrfExemptions, premiumRoutes } from './features/premium/routes.ts';
import { safetyRoutes } from './features/safety/routes.ts';
import { adminGate, adminRoutes } from './features/admin/routes.ts';
import { searchRoutes } from './features/search/routes.ts';
import { sessionCheckingPaths, swipeRoutes } from './features/swipes/routes.ts';
import { usernameShareRoutes } from './features/usernameShares/routes.ts';
import { telegramPhotoRoutes } from './features/telegramPhoto/routes.ts';
import { eventRoutes } from './features/events/routes.ts';
import { referralRoutes } from './features/referrals/routes.ts';
import { googleAuthRoutes } from './features/google/routes.ts';
import { telegramAuthRoutes, telegramCsrfExemptPaths } from './features/telegram/routes.ts';
import { handoverRoutes } from './features/handover/routes.ts';
import { pushRoutes } from './features/push/routes.ts';
import { configRoutes } from './features/config/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { uploadRoutes } from './features/photos/routes.ts';
import { profileRoutes } from './features/profiles/routes.ts';
import { photoVerificationRoutes } from './features/photoVerification/routes.ts';
import { locationRoutes } from './features/location/routes.ts';
import { verificationRoutes } from './features/verification/routes.ts';
import { passwordResetRoutes } from './features/passwordReset/routes.ts';
import { promptRoutes } from './features/prompts/routes.ts';
import { accountSettingsRoutes } from './features/accountSettings/routes.ts';
import { emailUnsubscribeRoutes, unsubscribeCsrfExemptPrefix } from './features/notifications/routes.ts';
import { sessionLoader } from './http/auth.ts';
import type { AppState } from './http/context.ts';
import { errorHandler } from './http/errorHandler.ts';
import { securityHeaders } from './http/securityHeaders.ts';
import { staticApp } from './http/staticApp.ts';
import { emptyPublicConfig } from './contract/config.ts';
import { buildServices, type AppDeps, type Services } from './services.ts';

/** Where Telegram posts updates in webhook mode (authenticated by its secret header, not a cookie). */
const telegramWebhookPath = '/telegram/webhook';

/** JSON bodies of the API are small; uploads get their own limits on their own routes. */
const jsonLimit = '64kb';

/** The whole HTTP app, without listening: main.ts listens, tests listen on a random port. */
export function createApp(deps: AppDeps, services: Services = buildServices(deps)): Koa<AppState> {
  const hops = deps.trustedProxyHops ?? 0;
  // ctx.ip is then the address our outermost proxy saw, counted from the right of X-Forwarded-For: Koa's
  // default (the leftmost entry) is whatever the client wrote there. Every reader of the client address
  // (login throttle, YooKassa's allow-list, session devices) uses ctx.ip and nothing else.
  const app = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });
  app.silent = true; // errors are logged once, by errorHandler

  const api = new Router<AppState>({ prefix: '/api' });
  healthRoutes(api, services);
  accountRoutes(api, services);
  verificationRoutes(api, services);
  passwordResetRoutes(api, services);
  accountSettingsRoutes(api, services);
  profileRoutes(api, services);
  promptRoutes(api);
  uploadRoutes(api, services);
  photoVerificationRoutes(api, services);
  searchRoutes(api, services);
  swipeRoutes(api, services);
  safetyRoutes(api, services);
  usernameShareRoutes(api, services);
  chatRoutes(api, services);
  badgeRoutes(api, services);
  dataRightsRoutes(api, services);
  premiumRoutes(api, services);
  eventRoutes(api, services);
  locationRoutes(api, services);
  telegramAuthRoutes(api, services);
  telegramPhotoRoutes(api, services);
  googleAuthRoutes(api, services);
  handoverRoutes(api, services);
  pushRoutes(api, services);
  referralRoutes(api, services);
  emailUnsubscribeRoutes(api, services);
  configRoutes(api, deps.publicConfig ?? emptyPublicConfig);
  adminRoutes(api, services);

  const photoUrl = services.photoStore.publicUrl;
  app.use(securityHeaders({ https: services.cookies.secure, photoOrigin: photoUrl ? new URL(photoUrl).origin : null }));
  app.use(errorHandler(deps.logger));
  // The built React app, for every GET the API does not answer (SPA fallback); none without a dist folder.
  if (deps.frontendDist) app.use(staticApp(deps.frontendDist));
  // Who is asking and whether a cookie request is same-site, decided before any body is read.
  app.use(sessionLoader(services.sessions, services.cookies, sessionCheckingPaths));
  app.use(
    services.csrf.middleware({
      paths: [
        ...telegramCsrfExemptPaths,
        ...premiumCsrfExemptions.paths,
        ...(deps.telegramWebhook ? [telegramWebhookPath] : []),
      ],
      prefixes: [...premiumCsrfExemptions.prefixes, unsubscribeCsrfExemptPrefix],
    }),
  );
  app.use(
    koaBody({
      json: true,
      urlencoded: false,
      text: false,
      multipart: false,
      jsonLimit,
    }),
  );
  if (deps.telegramWebhook) {
    // Authenticated by Telegram's secret header, not by a session (checked by the handler; CSRF-exempt).
    const telegram = new Router<AppState>();
    telegram.post(telegramWebhookPath, deps.telegramWebhook);
    app.use(telegram.routes());
  }
  // The moderation console answers 404 to everyone but admins, whatever the route or method.
  app.use(adminGate(services.adminAccess));
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}
