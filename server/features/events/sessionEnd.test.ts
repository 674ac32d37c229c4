import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { testPassword } from '../../test/accounts.ts';
import { Browser, json } from '../../test/browser.ts';
import { EventStreamClient, type ReceivedEvent } from '../../test/eventStream.ts';
import { createPerson } from '../../test/people.ts';
import { codeFrom } from '../../test/smtpStandIn.ts';
import { createTestApp, type TestApp } from '../../test/testApp.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/testDatabase.ts';
import { PasswordHasher } from '../accounts/index.ts';
import { AdminService } from '../admin/index.ts';
import { InProcessEventBus, type EventBus } from './eventBus.ts';
import { PostgresEventBus } from './postgresEventBus.ts';

/**
 * An open `GET /api/events` stream outlives the request that checked its session. When that session ends
 * (each way below), the stream closes and delivers nothing sent after the end, while a session still valid
 * keeps its stream. On PostgreSQL two app instances share the database, each with its own LISTEN bus, as two
 * processes: the session is ended through A and its streams on A and on B close. On SQLite one process
 * serves (the in-process bus). The default heartbeat (25 s) is far above what these tests wait: the streams
 * close on the notices, not on the heartbeat's check (tested last, with a short heartbeat).
 */
for (const dialect of testDialects()) {
  describe(`an open event stream whose session ends, on ${dialect}`, () => {
    let database: TestDatabase;
    let busA: EventBus;
    let a: TestApp;
    /** The second process (PostgreSQL only). */
    let b: TestApp | undefined;
    const hasher = new PasswordHasher();
    let passwordHash: string;

    const startBus = async (): Promise<EventBus> =>
      dialect === 'postgres'
        ? PostgresEventBus.start(database.url ?? '', database.schema ?? 'public', createLogger('silent'))
        : new InProcessEventBus();

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      busA = await startBus();
      a = await createTestApp(dialect, { database, eventBus: busA });
      if (dialect === 'postgres') b = await createTestApp(dialect, { database, eventBus: await startBus() });
      passwordHash = await hasher.hash(testPassword);
    });
    afterAll(async () => {
      await a.close();
      await b?.close();
      await database.drop();
    });

    const cookieOf = (browser: Browser) => ({ Cookie: `iskra_session=${browser.cookie('iskra_session') ?? ''}` });
    const streamOn = (app: TestApp, browser: Browser) =>
      EventStreamClient.open(`${app.url}/api/events`, cookieOf(browser));
    const isMessage = (content: string) => (e: ReceivedEvent) =>
      e.type === 'message' && (e.data as { content?: string }).content === content;
    /** Resolves when the server ends the stream; fails the test with a clear message if it never does. */
    const closes = (stream: EventStreamClient, what: string) =>
      Promise.race([
        stream.ended,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} still open`)), 10_000)),
      ]);

    /**
     * Me: an account with a password and a profile, signed in twice (`first` acts, `second` is another
     * device), matched with a partner who writes to me.
     */
    async function setUp() {
      const me = await createPerson(a, { gender: 'Female' });
      await database.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', me.userId).execute();
      const { email } = await database.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', me.userId)
        .executeTakeFirstOrThrow();
      if (!email) throw new Error('no e-mail');
      const second = new Browser(a.url);
      expect((await second.post('/api/login', { email, password: testPassword })).status).toBe(200);
      const partner = await createPerson(a, { gender: 'Male', premium: true });
      expect((await me.browser.post('/api/like', { profile_id: partner.profileId })).status).toBe(200);
      expect((await partner.browser.post('/api/like', { profile_id: me.profileId })).status).toBe(200);
      const started = await partner.browser.post('/api/conversations/start', { profile_id: me.profileId });
      const { conversation_id } = await json<{ conversation_id: number }>(started);
      const write = async (content: string) =>
        expect((await partner.browser.post(`/api/conversations/${conversation_id}/messages`, { content })).status).toBe(
          201,
        );
      return { me, email, second, partner, write };
    }

    type Setup = Awaited<ReturnType<typeof setUp>>;
    interface Ending {
      name: string;
      /** Ends the session(s) through instance A; answers the browser of a session it started, if any. */
      end(setup: Setup): Promise<Browser | undefined>;
      /**
       * The session that stays valid: the acting one (`me.browser`), a new one the ending started, or none
       * of mine (the account is gone, and my partner's stream goes on).
       */
      valid: 'acting' | 'new' | 'none';
    }

    const endings: Ending[] = [
      {
        name: 'sign out everywhere else',
        valid: 'acting',
        async end({ me }) {
          expect((await me.browser.post('/api/account/sessions/end_others')).status).toBe(200);
          return undefined;
        },
      },
      {
        name: 'a password change',
        valid: 'acting',
        async end({ me }) {
          const changed = await me.browser.post('/api/account/password', {
            current_password: testPassword,
            password: 'AnotherPassw0rd!',
          });
          expect(changed.status).toBe(200);
          return undefined;
        },
      },
      {
        name: 'a password reset',
        valid: 'new',
        async end({ email }) {
          const browser = new Browser(a.url);
          const before = a.smtp.mailsTo(email).length;
          expect((await browser.post('/api/password/forgot', { email })).status).toBe(200);
          const code = codeFrom(await a.smtp.nthMailTo(email, before + 1));
          expect((await browser.post('/api/password/reset', { email, code, password: 'ResetPassw0rd!' })).status).toBe(
            200,
          );
          // The reset signs this browser in: a new session, which keeps its stream.
          return browser;
        },
      },
      {
        name: 'a ban',
        valid: 'none',
        async end({ me }) {
          // As the bot's Ban button runs it: in the process of instance A, with A's bus.
          expect(await new AdminService(database.db, a.clock, {}, busA).ban(me.userId, 'cli')).toBe(true);
          return undefined;
        },
      },
      {
        name: 'the account deleted',
        valid: 'none',
        async end({ me }) {
          expect((await me.browser.post('/api/delete_account', { password: testPassword })).status).toBe(200);
          return undefined;
        },
      },
    ];

    it.each(endings)(
      'closes the streams of the sessions ended by $name, on every process; a valid session keeps its stream',
      async (ending) => {
        const setup = await setUp();
        const { me, second, partner, write } = setup;
        const apps = b ? [a, b] : [a];
        const ended = [second, ...(ending.valid === 'acting' ? [] : [me.browser])];
        const doomed = await Promise.all(apps.flatMap((app) => ended.map((browser) => streamOn(app, browser))));
        // The valid session's stream on the other process (on SQLite the one there is), open before the end.
        const acting = ending.valid === 'acting' ? await streamOn(b ?? a, me.browser) : undefined;
        const partnerStream = await streamOn(b ?? a, partner.browser);
        // Every stream delivers before the end: what they miss afterwards is not for want of a connection.
        await write('before the end');
        for (const stream of [...doomed, ...(acting ? [acting] : [])])
          await stream.waitFor(isMessage('before the end'));

        const eventsBefore = new Set(partnerStream.events);
        const started = await ending.end(setup);
        const keeps = acting ?? (started ? await streamOn(b ?? a, started) : undefined);
        for (const [i, stream] of doomed.entries()) await closes(stream, `stream ${i} of an ended session`);

        if (keeps) {
          // The account lives on: a message written now reaches the valid session and none of the ended ones.
          await write('after the end');
          await keeps.waitFor(isMessage('after the end'));
          keeps.close();
        } else {
          // The account is gone (banned, deleted): the partner's own stream still hears of it.
          await partnerStream.waitFor((e) => !eventsBefore.has(e) && (e.type === 'badges' || e.type === 'unmatched'));
        }
        for (const stream of doomed) expect(stream.events.filter(isMessage('after the end'))).toEqual([]);
        partnerStream.close();
      },
    );

    it('closes a stream whose session ended unannounced at its next heartbeat, which reads the session again', async () => {
      // A heartbeat of 200 ms: what the admin CLI on SQLite (another process, no notice) or a lost notice leaves.
      const quick = await createTestApp(dialect, {
        database,
        eventBus: new InProcessEventBus(),
        eventHeartbeatMs: 200,
      });
      try {
        const me = await createPerson(quick);
        const other = await createPerson(quick);
        const doomed = await streamOn(quick, me.browser);
        const keeps = await streamOn(quick, other.browser);
        await doomed.firstFrame;
        // Deleted behind the app's back: no route, no notice (on PostgreSQL with the triggers off).
        await database.db.transaction().execute(async (trx) => {
          if (dialect === 'postgres') await sql`set local session_replication_role = replica`.execute(trx);
          await trx.deleteFrom('sessions').where('user_id', '=', me.userId).execute();
        });
        await closes(doomed, 'the stream of the deleted session');
        // Several heartbeats later the valid session's stream is still open and delivers.
        const liker = await createPerson(quick, { gender: 'Male' });
        expect((await liker.browser.post('/api/like', { profile_id: other.profileId })).status).toBe(200);
        await keeps.waitFor((e) => e.type === 'badges');
        keeps.close();
      } finally {
        await quick.close();
      }
    });
  });
}
