import type { Kysely } from 'kysely';
import type { Dialect } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import { systemClock, type Clock } from './clock.ts';
import { AccountService } from './features/accounts/service.ts';
import { LoginThrottle } from './features/accounts/loginThrottle.ts';
import { PasswordHasher } from './features/accounts/passwords.ts';
import { SessionService } from './features/sessions/service.ts';
import { SessionTokens } from './features/sessions/tokens.ts';
import { VerificationService } from './features/verification/service.ts';
import { PhotoStore } from './features/photos/photoStore.ts';
import { ProfileService } from './features/profiles/service.ts';
import { DiscoveryService } from './features/discovery/service.ts';
import { RateCounter } from './features/rateLimits/rateCounter.ts';
import { ChatService } from './features/chat/service.ts';
import { InProcessEventBus, type EventBus } from './features/events/eventBus.ts';
import { Csrf } from './http/csrf.ts';
import type { CookiePolicy } from './http/sessionCookie.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail/mailer.ts';

/** What createApp needs from the outside world; main.ts builds the real ones, tests pass their own. */
export interface AppDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  logger: Logger;
  mailer: Mailer;
  /** Where photo files live (DATA_DIR/uploads). */
  uploadsDir: string;
  publicUrl: string;
  sessionSecret: string;
  /** Believe X-Forwarded-For / -Proto: only behind a proxy that sets them. */
  trustProxy?: boolean;
  clock?: Clock;
  passwords?: PasswordHasher;
  /** How event streams learn of new events; in-process unless PostgreSQL's LISTEN/NOTIFY is given. */
  eventBus?: EventBus;
}

/** The services every feature's routes call, built once per app from its deps. */
export interface Services {
  db: Kysely<Database>;
  logger: Logger;
  clock: Clock;
  cookies: CookiePolicy;
  csrf: Csrf;
  sessions: SessionService;
  accounts: AccountService;
  verification: VerificationService;
  photoStore: PhotoStore;
  profiles: ProfileService;
  discovery: DiscoveryService;
  chat: ChatService;
  eventBus: EventBus;
}

/** Paths that do not use the session cookie and so need no CSRF token (webhooks, token sign-in). */
const csrfExemptPaths = new Set<string>();

export function buildServices(deps: AppDeps): Services {
  const clock = deps.clock ?? systemClock;
  const publicUrl = new URL(deps.publicUrl);
  const cookies: CookiePolicy = { secure: publicUrl.protocol === 'https:' };
  const sessions = new SessionService(deps.db, new SessionTokens(deps.sessionSecret), clock);
  const throttle = new LoginThrottle(deps.db, clock, deps.sessionSecret);
  const photoStore = new PhotoStore(deps.uploadsDir);
  const rates = new RateCounter(deps.db, clock);
  const eventBus = deps.eventBus ?? new InProcessEventBus();
  return {
    db: deps.db,
    logger: deps.logger,
    clock,
    cookies,
    csrf: new Csrf({ ...cookies, secret: deps.sessionSecret, publicOrigin: publicUrl.origin, exemptPaths: csrfExemptPaths }),
    sessions,
    accounts: new AccountService(deps.db, deps.passwords ?? new PasswordHasher(), sessions, throttle, clock),
    verification: new VerificationService(deps.db, deps.mailer, clock, deps.sessionSecret, deps.logger),
    photoStore,
    profiles: new ProfileService(deps.db, photoStore, clock, deps.logger),
    discovery: new DiscoveryService(deps.db, clock, rates, eventBus),
    chat: new ChatService(deps.db, clock, rates, eventBus),
    eventBus,
  };
}
