import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BadgeCounts } from '../../contract/badges.ts';
import { createLogger } from '../../logger.ts';
import { json } from '../../test/browser.ts';
import { EventStreamClient } from '../../test/eventStream.ts';
import { createPerson, type Person } from '../../test/people.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { testDialects } from '../../test/testDatabase.ts';
import { InProcessEventBus } from '../events/index.ts';
import { defaultNotifyGraceSeconds, type Notification, NotificationWorker } from '../notifications/index.ts';
import { AdminService } from './adminService.ts';

let telegramIds = 720_000_000;

describe.each(testDialects())('what a ban takes off other people’s badges and notifications on %s', (dialect) => {
  let app: TestApp;
  let admin: AdminService;
  beforeEach(async () => {
    // The admin tools share the app's bus, as in the server process (the bot's Ban button).
    const eventBus = new InProcessEventBus();
    app = await createTestApp(dialect, { eventBus });
    admin = new AdminService(app.database.db, app.clock, {}, eventBus);
  });
  afterEach(async () => {
    await app.close();
  });

  const badges = async (person: Person) => json<BadgeCounts>(await person.browser.get('/api/badges'));
  /** B writes to A in a conversation of their match (B starts it, so only A has a new match). */
  async function messaged(a: Person, b: Person, content: string): Promise<number> {
    expect((await a.browser.post('/api/like', { profile_id: b.profileId })).status).toBe(200);
    expect((await b.browser.post('/api/like', { profile_id: a.profileId })).status).toBe(200);
    const id = (
      await json<{ conversation_id: number }>(
        await b.browser.post('/api/conversations/start', { profile_id: a.profileId }),
      )
    ).conversation_id;
    expect((await b.browser.post(`/api/conversations/${id}/messages`, { content })).status).toBe(201);
    return id;
  }

  it('bans someone who liked more people than one statement may name (a premium spammer): every one of them is told', async () => {
    const spammer = await createPerson(app, { gender: 'Male', premium: true });
    const db = app.database.db;
    const now = app.clock.now().toISOString();
    // More than SQLite's 32766 bound variables allow at 4 per badge marker, and PostgreSQL's 65535.
    const liked = 17_000;
    const run = `${process.pid}-${Date.now()}`;
    for (let start = 0; start < liked; start += 500) {
      const count = Math.min(500, liked - start);
      const users = await db
        .insertInto('users')
        .values(
          Array.from({ length: count }, (_, i) => ({
            email: `liked${start + i}-${run}@example.com`,
            password_hash: null,
            language: 'ru' as const,
            verified_at: now,
            banned_at: null,
            created_at: now,
          })),
        )
        .returning('id')
        .execute();
      const profiles = await db
        .insertInto('profiles')
        .values(
          users.map((u) => ({
            user_id: u.id,
            name: 'L',
            age: 30,
            gender: 'Female' as const,
            preferred_gender: 'Male' as const,
            bio: '',
            city: '',
            latitude: null,
            longitude: null,
            created_at: now,
            updated_at: now,
            private_mode: 0,
          })),
        )
        .returning('id')
        .execute();
      await db
        .insertInto('swipes')
        .values(profiles.map((p) => ({ swiper_id: spammer.profileId, target_id: p.id, liked: 1, created_at: now })))
        .execute();
    }
    expect(await admin.ban(spammer.userId, 'cli')).toBe(true);
    const told = await db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('type', '=', 'badges')
      .where('created_at', '=', now)
      .executeTakeFirstOrThrow();
    expect(Number(told.n)).toBeGreaterThanOrEqual(liked);
  }, 120_000);

  it('drops a banned sender’s unread messages from the Chats badge, the chat list and the bot’s notification', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const telegramId = String(++telegramIds);
    await app.database.db
      .updateTable('users')
      .set({ telegram_id: telegramId, bot_started_at: app.clock.now().toISOString() })
      .where('id', '=', me.userId)
      .execute();
    const spammer = await createPerson(app);
    const id = await messaged(me, spammer, 'купи крипту');
    expect((await badges(me)).unread_chats).toBe(1);
    expect(await admin.ban(spammer.userId, 'cli')).toBe(true);
    expect(await badges(me)).toEqual({ unread_chats: 0, new_matches: 0, new_likers: 0 });
    const chats = await json<{ conversation_id: number; has_unread: unknown }[]>(await me.browser.get('/api/chats'));
    expect(chats.filter((c) => c.conversation_id === id && Boolean(c.has_unread))).toEqual([]);
    const sent: Notification[] = [];
    const worker = new NotificationWorker(
      app.database.db,
      {
        send: (n) => {
          sent.push(n);
          return Promise.resolve();
        },
      },
      app.clock,
      createLogger('silent'),
    );
    app.clock.advance(defaultNotifyGraceSeconds + 1);
    await worker.drainOnce();
    expect(sent.filter((n) => n.telegramId === telegramId && n.kind === 'message')).toEqual([]);
    const jobs = await app.database.db
      .selectFrom('notification_jobs')
      .select('outcome')
      .where('user_id', '=', me.userId)
      .where('kind', '=', 'message')
      .execute();
    expect(jobs.map((j) => j.outcome)).toEqual(['stale']);
  });

  it('tells the open apps of people whose badges a ban or an unban changes (a match, a message, a like)', async () => {
    const me = await createPerson(app, { gender: 'Male' });
    const other = await createPerson(app, { gender: 'Male' });
    const banned = await createPerson(app);
    await messaged(me, banned, 'привет');
    expect((await other.browser.post('/api/like', { profile_id: banned.profileId })).status).toBe(200);
    expect((await banned.browser.post('/api/like', { profile_id: other.profileId })).status).toBe(200);
    const liked = await createPerson(app, { gender: 'Male' });
    expect((await banned.browser.post('/api/like', { profile_id: liked.profileId })).status).toBe(200);
    expect(await badges(liked)).toEqual({ unread_chats: 0, new_matches: 0, new_likers: 1 });
    const cookie = (p: Person) => ({ Cookie: `iskra_session=${p.browser.cookie('iskra_session') ?? ''}` });
    const streams = await Promise.all(
      [me, liked].map((p) => EventStreamClient.open(`${app.url}/api/events`, cookie(p))),
    );
    const [mine, theirs] = streams as [EventStreamClient, EventStreamClient];
    const counts = (expected: BadgeCounts) => (e: { type: string; data: unknown }) =>
      e.type === 'badges' && JSON.stringify(e.data) === JSON.stringify(expected);
    expect(await admin.ban(banned.userId, 'cli')).toBe(true);
    await mine.waitFor(counts({ unread_chats: 0, new_matches: 0, new_likers: 0 }));
    await theirs.waitFor(counts({ unread_chats: 0, new_matches: 0, new_likers: 0 }));
    expect(await admin.unban(banned.userId, 'cli')).toBe(true);
    await mine.waitFor(counts({ unread_chats: 1, new_matches: 1, new_likers: 0 }));
    await theirs.waitFor(counts({ unread_chats: 0, new_matches: 0, new_likers: 1 }));
    for (const stream of streams) stream.close();
  });
});
