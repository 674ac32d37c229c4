import type { Middleware } from 'koa';
import type { Kysely } from 'kysely';
import type { PublicConfig } from './contract/config.ts';
import type { Dialect } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import { systemClock, type Clock } from './clock.ts';
import { AccountService } from './features/accounts/service.ts';
import { GoogleIdTokenVerifier } from './features/google/idToken.ts';
import { GoogleSignInService } from './features/google/service.ts';
import { TelegramAuthService } from './features/telegram/service.ts';
import { TelegramUserService } from './features/telegram/telegramUsers.ts';
import { LoginDevices } from './features/accounts/loginDevices.ts';
import { LoginThrottle } from './features/accounts/loginThrottle.ts';
import { PasswordHasher } from './features/accounts/passwords.ts';
import { Reauthentication } from './features/accounts/reauthentication.ts';
import { AccountAlerts } from './features/accountAlerts/service.ts';
import { SessionHandoverService } from './features/handover/service.ts';
import { defaultPushEndpointOrigins, PushService, type WebPushSettings } from './features/push/index.ts';
import { DataRightsService } from './features/dataRights/service.ts';
import { SessionService } from './features/sessions/service.ts';
import { SessionTokens } from './features/sessions/tokens.ts';
import { EmailCodes } from './features/verification/codes.ts';
import { VerificationService } from './features/verification/service.ts';
import { PasswordResetService } from './features/passwordReset/service.ts';
import { AccountSettingsService } from './features/accountSettings/service.ts';
import { DiskPhotoStore } from './features/photos/diskPhotoStore.ts';
import type { PhotoStore } from './features/photos/photoStore.ts';
import { S3PhotoStore, type PhotoBucketSettings } from './features/photos/s3PhotoStore.ts';
import { ProfileService } from './features/profiles/service.ts';
import { PhotoVerificationService } from './features/photoVerification/service.ts';
import { modelsOff, type ModerationModels } from './features/moderationModels/moderationModels.ts';
import { UploadScreening } from './features/moderationModels/uploadScreening.ts';
import { SafetyService } from './features/safety/service.ts';
import { createCardSearch, type CardSearch, type SearchEngine } from './features/search/index.ts';
import { SwipeService } from './features/swipes/service.ts';
import { UsernameShareService } from './features/usernameShares/index.ts';
import { TelegramPhotoService } from './features/telegramPhoto/index.ts';
import { RateCounter } from './features/rateLimits/rateCounter.ts';
import { CodeAttempts } from './features/verification/codeAttempts.ts';
import { ChatService } from './features/chat/service.ts';
import { BadgeService } from './features/badges/service.ts';
import { NotificationQueue } from './features/notifications/queue.ts';
import { EmailUnsubscribeService } from './features/notifications/unsubscribe.ts';
import { UnsubscribeTokens } from './features/notifications/unsubscribeTokens.ts';
import { TelegramBotLinkService } from './features/telegram/botLink.ts';
import { AdminService } from './features/admin/adminService.ts';
import { AdminAccess } from './features/admin/adminAccess.ts';
import { ModerationConsole } from './features/admin/moderationConsole.ts';
import { PremiumService } from './features/premium/service.ts';
import type { YooKassaClient } from './features/premium/yookassa.ts';
import type { StarsApi } from './features/premium/stars.ts';
import type { AddressRanges } from './features/premium/addressRanges.ts';
import { InProcessEventBus, type EventBus } from './features/events/eventBus.ts';
import { heartbeatMs } from './features/events/liveStream.ts';
import { StreamSessions } from './features/events/streamSessions.ts';
import { Csrf } from './http/csrf.ts';
import { UploadBudget } from './http/multipart.ts';
import { maxPhotos } from './contract/profiles.ts';
import { maxPhotoBytes } from './features/photos/photoPipeline.ts';
import { ReferralService } from './features/referrals/service.ts';
import type { CookiePolicy } from './http/sessionCookie.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail/mailer.ts';

/** What createApp needs from the outside world; main.ts builds the real ones, tests pass their own. */
export interface AppDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The database handle's probe (db/client.ts), for /api/health: can a write go ahead now? */
  databaseProbe: () => Promise<'ok' | 'busy'>;
  logger: Logger;
  mailer: Mailer;
  /** The deck's search implementation (SEARCH_ENGINE); tuned when absent. */
  searchEngine?: SearchEngine;
  /** Where photo files live (DATA_DIR/uploads) unless `photoBucket` is given. */
  uploadsDir: string;
  /** S3_BUCKET and its settings: every photo goes to this bucket instead, nothing to `uploadsDir`. */
  photoBucket?: PhotoBucketSettings | undefined;
  /** What all uploads in memory may hold together (multipart.ts UploadBudget); three full uploads when unset. */
  uploadMemoryBytes?: number;
  publicUrl: string;
  sessionSecret: string;
  /**
   * How many reverse proxies of ours stand in front (TRUST_PROXY_HOPS); 0 or unset: none, and
   * X-Forwarded-* headers are ignored. The client address is the one our outermost proxy appended.
   */
  trustedProxyHops?: number;
  clock?: Clock;
  passwords?: PasswordHasher;
  /** How event streams learn of new events; in-process unless PostgreSQL's LISTEN/NOTIFY is given. */
  eventBus?: EventBus;
  /** PAYMENT_PROVIDER=test: the built-in checkout and the 10-rouble test plan. */
  testPaymentProvider?: boolean;
  /** NOTIFY_GRACE_SECONDS: how long a match, message or like notification waits for the app to show its event. */
  notifyGraceSeconds?: number;
  /** EMAIL_DAILY_CAP: notification e-mails per user in 24 hours. */
  emailDailyCap?: number;
  /** Checks Mini App init data and Login Widget hashes; without it Telegram sign-in answers 503. */
  botToken?: string | undefined;
  /** TELEGRAM_API_ROOT: the Bot API the server itself calls (the wizard's Telegram photo); Telegram's when unset. */
  telegramApiRoot?: string | undefined;
  /** Google sign-in; without a client id it answers 503. */
  google?: { clientId: string; jwksUrl: string } | undefined;
  /** The bot's webhook handler (BOT_MODE=webhook), served at POST /telegram/webhook. */
  telegramWebhook?: Middleware | undefined;
  /** The built front end (miniapp/dist) to serve; the API only when unset. */
  frontendDist?: string;
  /** Public settings for `GET /api/config` (sign-in buttons, footer); empty when unset. */
  publicConfig?: PublicConfig;
  /** Whether the Telegram bot reaches Telegram, for /api/health; 'off' when unset. */
  botStatus?: () => Promise<'off' | 'ok' | 'unreachable'>;
  /** Aborted when the process shuts down: long-lived responses (event streams) end then. */
  shutdownSignal?: AbortSignal;
  /** How often an event stream writes its heartbeat and has its session read again; 25 s unless a test wants it sooner. */
  eventHeartbeatMs?: number;
  /** ADMIN_TELEGRAM_IDS, for what only admins are offered (the test plan with a real provider). */
  adminTelegramIds?: readonly number[] | undefined;
  /** ADMIN_EMAILS (lower-cased): accounts whose verified e-mail opens the moderation console. */
  adminEmails?: readonly string[] | undefined;
  /** Telegram Stars through the bot (invoice links, refunds); purchases inside Telegram are refused without. */
  stars?: StarsApi | undefined;
  /** PAYMENT_PROVIDER=yookassa: the API client, the return page and the addresses notifications may come from. */
  yookassa?: { client: YooKassaClient; returnUrl: string; allowedRanges: AddressRanges } | undefined;
  /** Called with a new report's id once committed (main.ts forwards it to the admins in the bot). */
  reportFiled?: (reportId: number) => void;
  /** Web Push: VAPID keys (else made and kept), subject, accepted push services; the major browsers' when unset. */
  webPush?: WebPushSettings | undefined;
  /**
   * MODERATION_ML: the on-server models that check selfies and screen uploads (docs/trust.md); off when unset,
   * so selfies go to moderators and uploads are shown unscreened.
   */
  moderationModels?: ModerationModels | undefined;
}

/**
 * Every service, built once from the deps by buildServices: server/main.ts (the composition root) builds
 * them and hands the same instances to the HTTP app, the bot and the scheduled jobs; the CLIs build them
 * the same way.
 */
export interface Services {
  db: Kysely<Database>;
  dialect: Dialect;
  logger: Logger;
  mailer: Mailer;
  clock: Clock;
  cookies: CookiePolicy;
  csrf: Csrf;
  sessions: SessionService;
  accounts: AccountService;
  dataRights: DataRightsService;
  verification: VerificationService;
  passwordReset: PasswordResetService;
  accountSettings: AccountSettingsService;
  photoStore: PhotoStore;
  uploadBudget: UploadBudget;
  profiles: ProfileService;
  /** Selfie verification: the models' decision, or a moderator's (issue 40). */
  photoVerification: PhotoVerificationService;
  /** The moderation models (a worker thread started on first use), or none (MODERATION_ML=off). */
  moderationModels: ModerationModels;
  search: CardSearch;
  swipes: SwipeService;
  safety: SafetyService;
  /** The @username swap between matched people (issue 39). */
  usernameShares: UsernameShareService;
  chat: ChatService;
  badges: BadgeService;
  eventBus: EventBus;
  /** The sessions of the open event streams, which close when their session ends. */
  streamSessions: StreamSessions;
  premium: PremiumService;
  admin: AdminService;
  /** Who is an admin (ADMIN_EMAILS, ADMIN_TELEGRAM_IDS): the console's gate. */
  adminAccess: AdminAccess;
  /** The moderation console's queues, lookup, audit log and stats. */
  moderation: ModerationConsole;
  yookassaRanges: AddressRanges | undefined;
  telegramUsers: TelegramUserService;
  telegramAuth: TelegramAuthService;
  /** The wizard's offer of the user's own Telegram profile photo. */
  telegramPhoto: TelegramPhotoService;
  /** The one-time t.me deep link that adds Telegram to a web account (the bot redeems it). */
  telegramBotLinks: TelegramBotLinkService;
  /** Signs the one-click unsubscribe links of notification e-mails. */
  unsubscribeTokens: UnsubscribeTokens;
  emailUnsubscribe: EmailUnsubscribeService;
  googleSignIn: GoogleSignInService;
  /** The token page's one-time code that hands a session over to another browser. */
  handover: SessionHandoverService;
  referrals: ReferralService;
  /** Web Push: the VAPID key and the browsers' subscriptions (sending is the outbox's). */
  push: PushService;
  botStatus: () => Promise<'off' | 'ok' | 'unreachable'>;
  databaseProbe: () => Promise<'ok' | 'busy'>;
  shutdownSignal: AbortSignal;
}

/** The bucket when one is configured, else the folder; the CLIs that write photos (seed-demo) choose the same way. */
export function buildPhotoStore(deps: Pick<AppDeps, 'uploadsDir' | 'photoBucket'>): PhotoStore {
  return deps.photoBucket ? new S3PhotoStore(deps.photoBucket) : new DiskPhotoStore(deps.uploadsDir);
}

/** VAPID_SUBJECT, SUPPORT_EMAIL and an https PUBLIC_URL unset: push services accept any mailto:. */
export const defaultVapidSubject = 'mailto:push@iskra.invalid';

export function buildServices(deps: AppDeps): Services {
  const clock = deps.clock ?? systemClock;
  const publicUrl = new URL(deps.publicUrl);
  const cookies: CookiePolicy = { secure: publicUrl.protocol === 'https:' };
  // One hasher (and its concurrency gate) for sign-in and account deletion.
  const passwords = deps.passwords ?? new PasswordHasher();
  const eventBus: EventBus = deps.eventBus ?? new InProcessEventBus();
  const sessions = new SessionService(
    deps.db,
    new SessionTokens(deps.sessionSecret),
    clock,
    deps.sessionSecret,
    eventBus.sessionChanges,
    eventBus,
  );
  const throttle = new LoginThrottle(deps.db, clock, deps.sessionSecret);
  const photoStore = buildPhotoStore(deps);
  const rates = new RateCounter(deps.db, clock);
  const telegramUsers = new TelegramUserService(deps.db, clock);
  const search = createCardSearch(deps.searchEngine ?? 'tuned', deps.db, clock, rates);
  // Without SMTP mail is printed to the log: no notification e-mails then (their names and previews would land there).
  const notifications = new NotificationQueue(deps.notifyGraceSeconds, !deps.mailer.printsOnly);
  const codes = new EmailCodes(deps.sessionSecret);
  const codeAttempts = new CodeAttempts(rates, deps.sessionSecret);
  const devices = new LoginDevices(deps.sessionSecret);
  const unsubscribeTokens = new UnsubscribeTokens(deps.sessionSecret);
  // One check of "is this the owner?" and one way to tell the owner, for every feature that changes the ways in.
  const moderationModels = deps.moderationModels ?? modelsOff;
  const screening = new UploadScreening(moderationModels);
  const reauth = new Reauthentication(deps.db, rates, passwords, clock);
  const alerts = new AccountAlerts(deps.db, deps.mailer, clock, deps.logger, deps.publicUrl);
  // Refunds go back through the same provider settings as the payments: Stars through the bot, rubles through YooKassa.
  const admin = new AdminService(deps.db, clock, { stars: deps.stars, yookassa: deps.yookassa?.client }, eventBus);
  return {
    db: deps.db,
    dialect: deps.dialect,
    logger: deps.logger,
    mailer: deps.mailer,
    clock,
    cookies,
    csrf: new Csrf({
      ...cookies,
      secret: deps.sessionSecret,
      publicOrigin: publicUrl.origin,
    }),
    sessions,
    accounts: new AccountService(deps.db, passwords, sessions, throttle, devices, clock, rates),
    dataRights: new DataRightsService(deps.db, clock, reauth, photoStore, deps.publicUrl, eventBus, deps.logger),
    verification: new VerificationService(deps.db, codes, deps.mailer, clock, deps.logger, codeAttempts),
    passwordReset: new PasswordResetService(
      deps.db,
      codes,
      passwords,
      sessions,
      devices,
      deps.mailer,
      clock,
      deps.logger,
      rates,
      codeAttempts,
      alerts,
      deps.publicUrl,
    ),
    accountSettings: new AccountSettingsService(
      deps.db,
      codes,
      passwords,
      deps.mailer,
      clock,
      deps.logger,
      rates,
      reauth,
      alerts,
    ),
    photoStore,
    uploadBudget: new UploadBudget(deps.uploadMemoryBytes ?? 3 * maxPhotos * maxPhotoBytes),
    profiles: new ProfileService(deps.db, photoStore, clock, deps.logger, eventBus, screening),
    photoVerification: new PhotoVerificationService(
      deps.db,
      photoStore,
      moderationModels,
      screening,
      clock,
      rates,
      deps.logger,
      deps.sessionSecret,
    ),
    moderationModels,
    search,
    swipes: new SwipeService(deps.db, clock, eventBus, notifications, deps.logger),
    safety: new SafetyService(deps.db, clock, eventBus, deps.reportFiled),
    usernameShares: new UsernameShareService(deps.db, clock),
    chat: new ChatService(deps.db, clock, rates, eventBus, notifications),
    badges: new BadgeService(deps.db, clock, eventBus),
    premium: new PremiumService(
      deps.db,
      deps.dialect,
      clock,
      deps.sessionSecret,
      deps.testPaymentProvider ?? !deps.yookassa,
      {
        yookassa: deps.yookassa ? { client: deps.yookassa.client, returnUrl: deps.yookassa.returnUrl } : undefined,
        stars: deps.stars,
        logger: deps.logger,
        adminTelegramIds: deps.adminTelegramIds,
      },
    ),
    admin,
    adminAccess: new AdminAccess(deps.db, { emails: deps.adminEmails ?? [], telegramIds: deps.adminTelegramIds ?? [] }),
    moderation: new ModerationConsole(deps.db, clock, admin, photoStore, deps.logger),
    yookassaRanges: deps.yookassa?.allowedRanges,
    eventBus,
    streamSessions: new StreamSessions(deps.db, clock, eventBus, deps.logger, deps.eventHeartbeatMs ?? heartbeatMs),
    telegramUsers,
    referrals: new ReferralService(deps.db, clock, deps.logger, {
      publicUrl: deps.publicUrl,
      botUsername: deps.publicConfig?.bot_username ?? null,
    }),
    telegramAuth: new TelegramAuthService(deps.botToken, telegramUsers, sessions, clock, reauth, alerts),
    telegramPhoto: new TelegramPhotoService(
      deps.db,
      deps.botToken ? { token: deps.botToken, apiRoot: deps.telegramApiRoot ?? 'https://api.telegram.org' } : undefined,
      deps.logger,
      rates,
    ),
    telegramBotLinks: new TelegramBotLinkService(
      deps.db,
      telegramUsers,
      clock,
      deps.publicConfig?.bot_username ?? null,
      reauth,
      alerts,
    ),
    unsubscribeTokens,
    emailUnsubscribe: new EmailUnsubscribeService(deps.db, unsubscribeTokens, deps.publicUrl),
    handover: new SessionHandoverService(deps.db, sessions, clock, deps.publicUrl),
    push: new PushService(
      deps.db,
      clock,
      deps.webPush ?? { subject: defaultVapidSubject, endpointOrigins: defaultPushEndpointOrigins },
    ),
    botStatus: deps.botStatus ?? (() => Promise.resolve('off' as const)),
    databaseProbe: deps.databaseProbe,
    shutdownSignal: deps.shutdownSignal ?? new AbortController().signal,
    googleSignIn: new GoogleSignInService(
      deps.db,
      deps.google ? new GoogleIdTokenVerifier(deps.google.clientId, deps.google.jwksUrl, clock) : null,
      sessions,
      clock,
      reauth,
      alerts,
    ),
  };
}
