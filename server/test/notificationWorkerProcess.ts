/**
 * One drain of the notification worker's e-mail channel in a process of its own, for the crash test: the
 * test kills it with SIGKILL while its mail is in the SMTP server's hands. Reads what it needs from the
 * environment: the test database (DATA_DIR, or TEST_DATABASE_URL and SCHEMA), SMTP_URL, SESSION_SECRET, and NOW (the
 * test clock's time, so the same jobs are due here).
 */
import { openDatabase } from '../../db/client.ts';
import { NotificationWorker } from '../features/notifications/worker.ts';
import { UnsubscribeTokens } from '../features/notifications/unsubscribeTokens.ts';
import { createLogger } from '../logger.ts';
import { createSmtpMailer } from '../mail/mailer.ts';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const schema = process.env.SCHEMA;
const handle = schema
  ? openDatabase({ url: env('TEST_DATABASE_URL'), dataDir: env('DATA_DIR'), searchPath: schema, poolSize: 1 })
  : openDatabase({ dataDir: env('DATA_DIR') });
const now = new Date(env('NOW'));
const tokens = new UnsubscribeTokens(env('SESSION_SECRET'));
const worker = new NotificationWorker(handle.db, undefined, { now: () => now }, createLogger('silent'), {
  mailer: createSmtpMailer(env('SMTP_URL'), 'Iskra <no-reply@iskra.test>'),
  publicUrl: 'https://iskra.example',
  unsubscribeToken: (userId) => tokens.issue(userId),
  dailyCap: 5,
});
await worker.drainOnce();
await handle.db.destroy();
process.stdout.write('drained\n');
