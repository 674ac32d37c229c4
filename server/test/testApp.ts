import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Dialect } from '../../db/client.ts';
import type { PublicConfig } from '../contract/config.ts';
import { createApp } from '../app.ts';
import { createLogger } from '../logger.ts';
import { createSmtpMailer } from '../mail/mailer.ts';
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
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Serve this built front end (the browser tests pass miniapp/dist). */
  frontendDist?: string;
  publicConfig?: PublicConfig;
}

/** The real app on a random loopback port, over a fresh database, mailing through a real SMTP server. */
export async function createTestApp(dialect: Dialect, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
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
    logger,
    mailer: createSmtpMailer(smtpUrl, 'Iskra <no-reply@iskra.test>'),
    publicUrl: 'http://localhost:8080',
    sessionSecret: 'test-secret-that-is-long-enough-for-hmac-and-jwt',
    clock,
    ...options,
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    database,
    clock,
    smtp,
    logs,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await smtp.stop();
      await database.drop();
    },
  };
}
