import { once } from 'node:events';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Dialect } from '../../db/client.ts';
import { createApp } from '../app.ts';
import { answerClientErrorsInJson } from '../http/clientErrors.ts';
import type { AppState } from '../http/context.ts';
import { createLogger } from '../logger.ts';
import type { AppDeps } from '../services.ts';
import { createSmtpMailer } from '../mail/mailer.ts';
import type { Options } from '@node-rs/argon2';
import { argon2Options, PasswordHasher } from '../features/accounts/passwords.ts';
import { SmtpStandIn } from './smtpStandIn.ts';
import { TestClock } from './testClock.ts';
import { createTestDatabase, type TestDatabase } from './testDatabase.ts';

export interface TestApp {
  url: string;
  database: TestDatabase;
  clock: TestClock;
  smtp: SmtpStandIn;
  /** Every log line the app wrote, as JSON text, to check what the log never contains. */
  logs: string[];
  /** Every route the app serves (method and path pattern), read from its routers. */
  routes: AppRoute[];
  /** Cuts every open connection (event streams included), as a restart or a network drop would. */
  dropConnections(): void;
  close(): Promise<void>;
}

export const testSessionSecret = 'test-secret-that-is-long-enough-for-hmac-and-jwt';

export interface AppRoute {
  method: string;
  /** The router's pattern, e.g. `/api/conversations/:id/messages`. */
  path: string;
}

/**
 * The routes of an app as its @koa/router routers hold them (each router's middleware carries its router),
 * so a test covering every route covers a new one without a list to keep up. HEAD is left out: the router
 * adds it to every GET.
 */
export function routesOf(app: Koa<AppState>): AppRoute[] {
  return app.middleware.flatMap((middleware) => {
    const router = (middleware as { router?: Router<AppState> }).router;
    return (router?.stack ?? []).flatMap(({ path, methods }) =>
      typeof path === 'string' ? methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path })) : [],
    );
  });
}

/** What a test may add: Telegram and Google settings pointing at stand-ins, a webhook handler, a shared database. */
export type TestAppOptions = Partial<
  Pick<
    AppDeps,
    | 'botToken'
    | 'telegramApiRoot'
    | 'searchEngine'
    | 'google'
    | 'telegramWebhook'
    | 'eventBus'
    | 'frontendDist'
    | 'publicConfig'
    | 'botStatus'
    | 'shutdownSignal'
    | 'reportFiled'
    | 'yookassa'
    | 'testPaymentProvider'
    | 'stars'
    | 'adminTelegramIds'
    | 'adminEmails'
    | 'trustedProxyHops'
    | 'publicUrl'
    | 'uploadMemoryBytes'
    | 'mailer'
    | 'photoBucket'
    | 'moderationModels'
    | 'passwords'
    | 'eventHeartbeatMs'
    | 'webPush'
  >
> & {
  /** Share another app's database (a second server process on the same data). */
  database?: TestDatabase;
  /** SQLite: start from this backup file, restored as docs/operations.md says. */
  restoreFrom?: string;
};

/**
 * Argon2id at a tiny cost: the suite signs up and in thousands of times, and at OWASP's 19 MiB and two
 * passes each took tens of milliseconds of a core. The tests of argon2id's parameters pass `passwords`.
 */
export const cheapArgon2Options: Options = { ...argon2Options, memoryCost: 64, timeCost: 1 };

/** The real app on a random loopback port, over a fresh database, mailing through a real SMTP server. */
export async function createTestApp(dialect: Dialect, options: TestAppOptions = {}): Promise<TestApp> {
  const { database: shared, restoreFrom, ...extra } = options;
  const database = shared ?? (await createTestDatabase(dialect, restoreFrom ? { restoreFrom } : {}));
  const smtp = new SmtpStandIn();
  const smtpUrl = await smtp.start();
  const clock = new TestClock();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const logger = createLogger('info', sink);
  const app = createApp({
    db: database.db,
    dialect,
    databaseProbe: database.probe,
    logger,
    mailer: createSmtpMailer(smtpUrl, 'Iskra <no-reply@iskra.test>'),
    uploadsDir: path.join(database.dataDir, 'uploads'),
    publicUrl: 'http://localhost:8080',
    sessionSecret: testSessionSecret,
    clock,
    passwords: new PasswordHasher(2, cheapArgon2Options),
    ...extra,
  });
  const server: Server = app.listen(0, '127.0.0.1');
  answerClientErrorsInJson(server);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    database,
    clock,
    smtp,
    logs,
    routes: routesOf(app),
    dropConnections: () => server.closeAllConnections(),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await smtp.stop();
      await options.eventBus?.close();
      // A shared database belongs to the app that made it.
      if (!options.database) await database.drop();
    },
  };
}
