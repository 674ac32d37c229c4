import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { createPerson } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { enqueuePremiumReminder } from './queue.ts';
import { NotificationWorker, type Notification, type Notifier } from './worker.ts';

let telegramIds = 710_000_000;

describe.each(testDialects())('notification claims with two worker processes on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  /** Someone the bot may write to, with a renewal reminder due now (always news: the worker sends it). */
  async function reminderFor(): Promise<string> {
    const person = await createPerson(app);
    const telegramId = String(++telegramIds);
    const now = app.clock.now();
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: telegramId, bot_started_at: now.toISOString() })
      .where('id', '=', person.userId)
      .execute();
    expect(
      await enqueuePremiumReminder(
        app.database.db,
        person.userId,
        new Date(now.getTime() + 86_400_000).toISOString(),
        now,
      ),
    ).toBe(true);
    return telegramId;
  }

  it('never sends a job twice when one batch outlasts the claim window and a second process drains meanwhile', async () => {
    const first = await reminderFor();
    const second = await reminderFor();
    const logger = createLogger('silent');
    const sent: string[] = [];
    const fast: Notifier = {
      send(n: Notification) {
        sent.push(n.telegramId);
        return Promise.resolve();
      },
    };
    const other = new NotificationWorker(app.database.db, fast, app.clock, logger);
    // Process A's first send is slow (Telegram's pacing): 90 s pass. During its second send, process B drains.
    const slow: Notifier = {
      async send(n: Notification) {
        if (sent.length === 0) app.clock.advance(90);
        else await other.drainOnce();
        sent.push(n.telegramId);
      },
    };
    const a = new NotificationWorker(app.database.db, slow, app.clock, logger);
    expect(await a.drainOnce()).toBe(2);
    expect(sent.sort()).toEqual([first, second].sort());
    const outcomes = await app.database.db.selectFrom('notification_jobs').select('outcome').execute();
    expect(outcomes.map((o) => o.outcome)).toEqual(['sent', 'sent']);
  });

  it('on stop finishes the send in hand and claims nothing more, leaving the rest due for another worker', async () => {
    const first = await reminderFor();
    await reminderFor();
    const sent: string[] = [];
    let stopped: Promise<void> | undefined;
    const worker: NotificationWorker = new NotificationWorker(
      app.database.db,
      {
        send(n: Notification) {
          // SIGTERM arrives while the first message is with Telegram.
          stopped ??= worker.stop();
          sent.push(n.telegramId);
          return Promise.resolve();
        },
      },
      app.clock,
      createLogger('silent'),
    );
    expect(await worker.drainOnce()).toBe(1);
    await stopped;
    expect(sent).toEqual([first]);
    // The second was never claimed: still due now, so another worker sends it at once rather than after a lease.
    const other: string[] = [];
    const next = new NotificationWorker(
      app.database.db,
      { send: (n) => Promise.resolve(void other.push(n.telegramId)) },
      app.clock,
      createLogger('silent'),
    );
    expect(await next.drainOnce()).toBe(1);
    expect(other).toHaveLength(1);
    expect(other[0]).not.toBe(first);
  });
});
