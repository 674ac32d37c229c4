import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseHandle } from '../db/client.ts';
import type { Env } from './env.ts';
import type { PhotoBucketSettings } from './features/photos/s3PhotoStore.ts';
import { yookassaFromEnv } from './features/premium/yookassaSetup.ts';
import type { Logger } from './logger.ts';
import { createLogMailer, createSmtpMailer } from './mail/mailer.ts';
import { pushEndpointOrigins } from './features/push/index.ts';
import { WorkerModels } from './features/moderationModels/index.ts';
import { parseAdminEmails } from './features/admin/index.ts';
import { buildServices, defaultVapidSubject, type AppDeps, type Services } from './services.ts';

/** Built by `npm run build` (and by `npm start` when missing or stale, see scripts/ensure-frontend.ts). */
export const frontendDist = path.resolve(import.meta.dirname, '../miniapp/dist');

/** ADMIN_TELEGRAM_IDS: Telegram user ids, separated by commas or spaces; anything else is ignored. */
export function parseAdminIds(value: string | undefined): number[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .filter((v) => /^\d{1,15}$/.test(v))
    .map(Number);
}

/** What only the process that runs them can give: the event bus, the bot's parts, the shutdown signal. */
export type Wiring = Partial<
  Pick<AppDeps, 'eventBus' | 'stars' | 'reportFiled' | 'botStatus' | 'shutdownSignal' | 'telegramWebhook'>
>;

/**
 * The one recipe from the environment to the app's deps, shared by the server (server/main.ts), `npm run job`
 * and `npm run admin`, so a CLI's premium, mail or refund settings can never differ from the server's.
 */
export function appDepsFromEnv(env: Env, handle: DatabaseHandle, logger: Logger, wiring: Wiring = {}): AppDeps {
  return {
    db: handle.db,
    dialect: handle.dialect,
    databaseProbe: handle.probe,
    logger,
    mailer: env.SMTP_URL ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM) : createLogMailer(logger),
    uploadsDir: path.join(env.DATA_DIR, 'uploads'),
    photoBucket: photoBucketFromEnv(env),
    publicUrl: env.PUBLIC_URL,
    sessionSecret: env.SESSION_SECRET,
    trustedProxyHops: env.TRUST_PROXY_HOPS,
    testPaymentProvider: env.PAYMENT_PROVIDER === 'test',
    yookassa: yookassaFromEnv(env),
    adminTelegramIds: parseAdminIds(env.ADMIN_TELEGRAM_IDS),
    adminEmails: parseAdminEmails(env.ADMIN_EMAILS),
    notifyGraceSeconds: env.NOTIFY_GRACE_SECONDS,
    searchEngine: env.SEARCH_ENGINE,
    moderationModels: env.MODERATION_ML === 'on' ? new WorkerModels(logger) : undefined,
    emailDailyCap: env.EMAIL_DAILY_CAP,
    botToken: env.BOT_TOKEN,
    telegramApiRoot: env.TELEGRAM_API_ROOT,
    google: env.GOOGLE_CLIENT_ID ? { clientId: env.GOOGLE_CLIENT_ID, jwksUrl: env.GOOGLE_JWKS_URL } : undefined,
    frontendDist: existsSync(frontendDist) ? frontendDist : undefined,
    publicConfig: {
      google_client_id: env.GOOGLE_CLIENT_ID ?? null,
      bot_username: env.BOT_USERNAME ?? null,
      telegram_bot_id: env.BOT_TOKEN ? Number(env.BOT_TOKEN.split(':')[0]) || null : null,
      support_email: env.SUPPORT_EMAIL ?? null,
      support_telegram: env.SUPPORT_TELEGRAM ?? null,
      legal_name: env.LEGAL_NAME ?? null,
      legal_inn: env.LEGAL_INN ?? null,
      legal_ogrnip: env.LEGAL_OGRNIP ?? null,
    },
    webPush: {
      keys:
        env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
          ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
          : undefined,
      subject: vapidSubject(env),
      endpointOrigins: pushEndpointOrigins(env.WEB_PUSH_ENDPOINT_ORIGINS),
    },
    ...wiring,
  };
}

/** How a push service may reach the operator (RFC 8292): VAPID_SUBJECT, else the support address, else the site. */
function vapidSubject(env: Pick<Env, 'VAPID_SUBJECT' | 'SUPPORT_EMAIL' | 'PUBLIC_URL'>): string {
  if (env.VAPID_SUBJECT) return env.VAPID_SUBJECT;
  if (env.SUPPORT_EMAIL) return `mailto:${env.SUPPORT_EMAIL}`;
  return env.PUBLIC_URL.startsWith('https:') ? new URL(env.PUBLIC_URL).origin : defaultVapidSubject;
}

/** S3_BUCKET and the rest (env.ts checked that the keys come with it); undefined: photos stay on disk. */
export function photoBucketFromEnv(
  env: Pick<
    Env,
    | 'S3_BUCKET'
    | 'S3_ENDPOINT'
    | 'S3_REGION'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
    | 'S3_FORCE_PATH_STYLE'
    | 'S3_PREFIX'
    | 'PHOTO_PUBLIC_URL'
  >,
): PhotoBucketSettings | undefined {
  if (!env.S3_BUCKET || !env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY) return undefined;
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    prefix: env.S3_PREFIX,
    publicUrl: env.PHOTO_PUBLIC_URL,
  };
}

/** Every service, once, from the environment. */
export function servicesFromEnv(
  env: Env,
  handle: DatabaseHandle,
  logger: Logger,
  wiring: Wiring = {},
): { deps: AppDeps; services: Services } {
  const deps = appDepsFromEnv(env, handle, logger, wiring);
  return { deps, services: buildServices(deps) };
}
