import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const httpUrl = z.url({ protocol: /^https?$/ });

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    /** Unset: this machine at PORT (so a newcomer's `PORT=3000 npm run demo` prints links that work). */
    PUBLIC_URL: httpUrl.optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'must start with postgres:// or sqlite:')
        .optional(),
    ),
    // PostgreSQL: the schema the tables live in (it must exist; `npm run db:migrate` creates it). Unset: public.
    DATABASE_SCHEMA: optionalString.pipe(
      z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case PostgreSQL identifier (letters, digits, _)')
        .optional(),
    ),
    // PostgreSQL only: live events' doorbells go through Redis pub/sub (redis:// or rediss://) instead of
    // PostgreSQL NOTIFY; each web process then hears only the users whose streams it holds.
    REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
    // all: one process does everything (the default, the only choice on SQLite). web: HTTP only (the API, the
    // app, the bot's webhook). worker: scheduled jobs, the notification outbox, bot polling; no HTTP server.
    ROLE: z.enum(['all', 'web', 'worker']).default('all'),
    // How long a stopping process lets requests in flight, a running job or a notification being sent finish.
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
    SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
    MAIL_FROM: z.string().default('Iskra <no-reply@localhost>'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // The deck's search: tuned (pools, frontiers; the default) or plain (the reference, slow: one query of
    // everyone eligible). Both give the same cards (server/features/search/searchEquivalence.test.ts).
    SEARCH_ENGINE: z.enum(['plain', 'tuned']).default('tuned'),
    // Selfie verification and upload screening by on-server models (docs/trust.md): on (the default; a worker
    // thread loads them at the first photo, about 350 MB) or off (every selfie goes to a moderator, uploads
    // are shown unscreened).
    MODERATION_ML: z.enum(['on', 'off']).default('on'),
    TRUST_PROXY: z
      .enum(['true', 'false', '1', '0', ''])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    // How many reverse proxies of ours stand in front, each appending the address it saw to X-Forwarded-For.
    // Unset: 1 with TRUST_PROXY. Anything further left was written by the client and is not believed.
    TRUST_PROXY_HOPS: optionalString.pipe(z.coerce.number<string | undefined>().int().min(1).max(10).optional()),
    BOT_TOKEN: optionalString,
    BOT_USERNAME: optionalString,
    // Unset: polling when BOT_TOKEN is set, else off (see below).
    BOT_MODE: optionalString.pipe(z.enum(['off', 'polling', 'webhook']).optional()),
    TELEGRAM_API_ROOT: httpUrl.default('https://api.telegram.org'),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_JWKS_URL: httpUrl.default('https://www.googleapis.com/oauth2/v3/certs'),
    // Unset: the built-in test checkout on http (development), and no web payments at all on https, since the
    // test checkout grants premium for free; a public site must choose `test` explicitly (see below).
    PAYMENT_PROVIDER: optionalString.pipe(z.enum(['test', 'yookassa', 'off']).optional()),
    YOOKASSA_SHOP_ID: optionalString,
    YOOKASSA_SECRET_KEY: optionalString,
    YOOKASSA_API_URL: httpUrl.default('https://api.yookassa.ru/v3'),
    YOOKASSA_ALLOWED_IPS: optionalString,
    ADMIN_TELEGRAM_IDS: optionalString,
    // Comma-separated e-mails whose VERIFIED accounts open the moderation console (/admin); case-insensitive.
    ADMIN_EMAILS: optionalString,
    SUPPORT_EMAIL: optionalString,
    SUPPORT_TELEGRAM: optionalString,
    LEGAL_NAME: optionalString,
    LEGAL_INN: optionalString,
    LEGAL_OGRNIP: optionalString,
    CRON: z.enum(['on', 'off']).default('on'),
    // `name=cron expression;…`: other schedules for some jobs (server/features/jobs/scheduler.ts withSchedules).
    JOB_SCHEDULES: optionalString,
    // How long a match, message or like notification waits for the app to show its event before the bot sends it.
    NOTIFY_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    EMAIL_DAILY_CAP: z.coerce.number().int().min(0).max(100).default(5),
    // Web Push (features/push): the VAPID key pair, base64url as web-push writes it. Unset: made on first start
    // and kept in the database, shared by every process. The subject is how push services reach the operator.
    VAPID_PUBLIC_KEY: optionalString,
    VAPID_PRIVATE_KEY: optionalString,
    VAPID_SUBJECT: optionalString.pipe(
      z
        .string()
        .regex(/^(mailto:|https:)/, 'must be a mailto: or https: URL')
        .optional(),
    ),
    // Comma-separated origins a browser's push endpoint may be on (`https://*.example` for any subdomain).
    // Unset: the major browsers' push services. Nothing else is ever called.
    WEB_PUSH_ENDPOINT_ORIGINS: optionalString,
    // Photos in an S3-compatible bucket instead of DATA_DIR/uploads (README: Photos in object storage).
    S3_BUCKET: optionalString,
    // Unset: AWS itself; for any other S3-compatible store its address, e.g. https://storage.yandexcloud.net.
    S3_ENDPOINT: optionalString.pipe(httpUrl.optional()),
    S3_REGION: optionalString.pipe(z.string().optional()),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false', '1', '0', ''])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    // A folder in the bucket for this deployment's photos, e.g. `staging`: two deployments sharing a bucket
    // must each have their own, or each one's orphan sweep deletes the other's photos. Unset: the bucket's root.
    S3_PREFIX: optionalString.pipe(
      z
        .string()
        .transform((v) => v.replace(/\/+$/, ''))
        .pipe(
          z
            .string()
            .regex(
              /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/,
              'must be a key prefix such as iskra/staging (no leading slash, no empty parts)',
            ),
        )
        .optional(),
    ),
    // A CDN (or the bucket's own public address) serving the same names: /api/uploads/<name> redirects there.
    PHOTO_PUBLIC_URL: optionalString.pipe(httpUrl.optional()),
  })
  .superRefine((env, ctx) => {
    const postgres = env.DATABASE_URL !== undefined && /^postgres(ql)?:\/\//.test(env.DATABASE_URL);
    // A SQLite file lives on one machine and takes one writer: splitting the roles there would only make
    // processes wait for each other's lock. So on SQLite the one process does everything.
    if (env.ROLE !== 'all' && !postgres) {
      ctx.addIssue({
        code: 'custom',
        path: ['ROLE'],
        message: `${env.ROLE} needs PostgreSQL (DATABASE_URL=postgres://…); on SQLite one process does everything: ROLE=all (or unset)`,
      });
    }
    // Each process has its own DATA_DIR, so a generated secret would differ between them and a session
    // signed by one web process would be refused by the next.
    if (env.ROLE !== 'all' && env.SESSION_SECRET === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: `is required with ROLE=${env.ROLE}: every process must share it`,
      });
    }
    // Each process has its own DATA_DIR: photos kept there would be served by the process that took them
    // only (the others answer the placeholder), and a deleted account's photos would stay on whichever
    // process the deletion did not reach.
    if (env.ROLE !== 'all' && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: `is required with ROLE=${env.ROLE}: every process must keep photos in one bucket (README: Photos in object storage)`,
      });
    }
    if ((env.VAPID_PUBLIC_KEY === undefined) !== (env.VAPID_PRIVATE_KEY === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['VAPID_PRIVATE_KEY'],
        message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together (or neither: made on first start)',
      });
    }
    if (env.DATABASE_SCHEMA !== undefined && !postgres) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_SCHEMA'],
        message: 'is for PostgreSQL only (DATABASE_URL=postgres://…)',
      });
    }
    if (env.REDIS_URL !== undefined && !postgres) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_URL'],
        message: 'is for PostgreSQL only (DATABASE_URL=postgres://…): on SQLite one process hears its own events',
      });
    }
    if (env.TRUST_PROXY_HOPS !== undefined && !env.TRUST_PROXY) {
      ctx.addIssue({ code: 'custom', path: ['TRUST_PROXY_HOPS'], message: 'has no effect without TRUST_PROXY=true' });
    }
    if (env.S3_BUCKET) {
      // Static keys, required: S3-compatible stores outside AWS have no instance credentials to fall back
      // on, and a missing key is better found at start than at the first upload.
      for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when S3_BUCKET is set' });
      }
      // An https page showing http photos: browsers block them as mixed content, or the photos travel in clear.
      if (env.PHOTO_PUBLIC_URL?.startsWith('http:') && env.PUBLIC_URL?.startsWith('https:')) {
        ctx.addIssue({ code: 'custom', path: ['PHOTO_PUBLIC_URL'], message: 'must be https when PUBLIC_URL is https' });
      }
    } else {
      for (const key of [
        'S3_ENDPOINT',
        'S3_REGION',
        'S3_ACCESS_KEY_ID',
        'S3_SECRET_ACCESS_KEY',
        'S3_PREFIX',
        'PHOTO_PUBLIC_URL',
      ] as const) {
        if (env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'has no effect without S3_BUCKET' });
      }
    }
    if (env.PAYMENT_PROVIDER === 'yookassa') {
      for (const key of ['YOOKASSA_SHOP_ID', 'YOOKASSA_SECRET_KEY'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when PAYMENT_PROVIDER=yookassa' });
      }
    }
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    BOT_MODE: env.BOT_MODE ?? (env.BOT_TOKEN ? 'polling' : 'off'),
    // 0: no proxy is trusted and the socket's address is the client's.
    TRUST_PROXY_HOPS: env.TRUST_PROXY ? (env.TRUST_PROXY_HOPS ?? 1) : 0,
    PAYMENT_PROVIDER: env.PAYMENT_PROVIDER ?? (env.PUBLIC_URL?.startsWith('https:') ? 'off' : 'test'),
    // Any region will do for most S3-compatible stores; AWS's first is what their examples use.
    S3_REGION: env.S3_REGION ?? 'us-east-1',
    PHOTO_PUBLIC_URL: env.PHOTO_PUBLIC_URL?.replace(/\/+$/, ''),
  }));

export type Env = z.output<typeof envSchema> & { SESSION_SECRET: string };

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/** Parses the whole environment and reports every problem at once, so a bad deploy is fixed in one go. */
export function parseEnv(source: NodeJS.ProcessEnv): Omit<Env, 'SESSION_SECRET'> & { SESSION_SECRET?: string } {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  return result.data;
}

/**
 * A zero-config start still needs a stable secret (sessions must survive a restart),
 * so one is generated once and kept beside the data, readable only by the server's user.
 */
export function ensureSessionSecret(dataDir: string, given: string | undefined): string {
  if (given) return given;
  const file = path.join(dataDir, 'session-secret');
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = parseEnv(source);
  return { ...parsed, SESSION_SECRET: ensureSessionSecret(parsed.DATA_DIR, parsed.SESSION_SECRET) };
}
